---@brief
---
--- burnlint: finds misuse of burn's dispatch autodiff API in Rust code before it panics.
---
--- Install the server (it is a Python package) so that `burnlint` is on `$PATH`:
--- ```sh
--- pipx install burnlint        # or: pip install burnlint
--- ```
---
--- Then add this folder (`editors/nvim`) to 'runtimepath' and enable the config (Neovim 0.11+):
--- ```lua
--- vim.opt.runtimepath:append('/path/to/burnlint/editors/nvim')
--- vim.lsp.enable('burnlint')
--- ```
---
--- To run the server some other way (a virtual environment, `python -m burnlint`), set
--- `vim.g.burnlint_cmd` before the first Rust buffer is opened, or override `cmd`:
--- ```lua
--- vim.g.burnlint_cmd = { '/path/to/venv/bin/python', '-m', 'burnlint', 'server' }
--- -- or
--- vim.lsp.config('burnlint', { cmd = { '/path/to/venv/bin/burnlint', 'server' } })
--- ```
---
--- Settings are served to the server through `workspace/configuration` (section `burnlint`):
--- ```lua
--- vim.lsp.config('burnlint', { settings = { burnlint = { ignore = { 'BD006' } } } })
--- ```

--- The command that starts the server: `vim.g.burnlint_cmd` (a list, or a string naming the
--- `burnlint` executable) wins over the default `burnlint server`.
---@return string[]
local function server_cmd()
  local cmd = vim.g.burnlint_cmd
  if type(cmd) == 'string' and cmd ~= '' then
    return { cmd, 'server' }
  end
  if type(cmd) == 'table' and #cmd > 0 then
    return vim.deepcopy(cmd)
  end
  return { 'burnlint', 'server' }
end

---@type vim.lsp.Config
return {
  cmd = server_cmd(),
  filetypes = { 'rust' },
  root_markers = { 'Cargo.toml', '.git' },
  settings = {
    burnlint = {
      -- false turns every diagnostic, hover and fix off without stopping the server.
      enable = true,
      -- "openFiles": diagnostics for open buffers; "workspace": for every .rs file of the crate.
      scope = 'openFiles',
      -- burn API era: "auto" detects it from Cargo.toml/Cargo.lock, else from the code;
      -- "context" (DispatchAutodiffContext), "checkpointing" (the 2026-08 field) or "generic"
      -- (burn <= 0.21, where no rule applies) force one.
      era = 'auto',
      -- Codes never reported, e.g. { 'BD006' }.
      ignore = {},
      -- Per-code severity: { BD001 = 'warning' } ("error", "warning", "info", "hint").
      -- vim.empty_dict() so that it reaches the server as a JSON object, not [].
      severity = vim.empty_dict(),
      -- Offer unsafe fixes (such as stripping autodiff from a tensor) as quick fixes;
      -- :BurnlintFixAll and source.fixAll.burnlint only ever apply safe ones.
      unsafeFixes = true,
      -- The server's own log level: "error", "warning", "info" or "debug".
      logLevel = 'warning',
      -- Tensor-state inlay hints (`autodiff`, `plain`, `ctx: Disabled`, `autodiff?`) after let
      -- bindings and parameters: "off", "on", or "dispatch" (only in functions that name
      -- dispatch types). Shown with vim.lsp.inlay_hint.enable(true).
      inlayHints = 'dispatch',
      -- docsUrl = 'https://example.org/burnlint/{code}',  -- link shown for each code
    },
  },
}
