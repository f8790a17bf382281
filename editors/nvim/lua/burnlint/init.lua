--- burnlint for Neovim: optional commands on top of the `burnlint` language server config.
---
--- ```lua
--- require('burnlint').setup({})
--- ```
--- creates
---   :BurnlintExplain [code-or-text]  explain a code (BD001), a slug or a pasted burn panic message;
---                                    without an argument, the burnlint diagnostic under the cursor
---   :BurnlintFixAll                  apply every burnlint fix in the buffer (source.fixAll.burnlint)
---   :BurnlintProvenance              the path of the burnlint finding under the cursor (origin,
---                                    bindings, stores, calls, sink) in the quickfix list; the code
---                                    action "Show where this value came from" does the same

local M = {}

local CLIENT_NAME = 'burnlint'
local FIX_ALL_KIND = 'source.fixAll.burnlint'
local EXPLAIN_COMMAND = 'burnlint.explain'
local PROVENANCE_COMMAND = 'burnlint.showProvenance'

---@class burnlint.Opts
---@field commands? boolean create :BurnlintExplain and :BurnlintFixAll (default true)
---@field fix_all_on_save? boolean run the fix-all action synchronously before each write of a
---  Rust buffer that burnlint is attached to (default false)
---@field timeout_ms? integer how long synchronous requests may take (default 5000)
---@field inlay_hints? boolean show the server's tensor-state inlay hints (`autodiff`, `plain`,
---  `ctx: Disabled`) in Rust buffers burnlint attaches to (default false: this turns on every
---  attached server's hints for the buffer, as `vim.lsp.inlay_hint.enable` does). Which hints
---  the server sends is its `inlayHints` setting ("off", "on", "dispatch")
---@field float? table options for the explain window, passed to
---  `vim.lsp.util.open_floating_preview` (default: rounded border, 100 columns, 30 lines)

---@type burnlint.Opts
M.defaults = {
  commands = true,
  fix_all_on_save = false,
  timeout_ms = 5000,
  inlay_hints = false,
  float = { border = 'rounded', max_width = 100, max_height = 30, focus_id = 'burnlint-explain' },
}

---@type burnlint.Opts
M.options = vim.deepcopy(M.defaults)

local function notify(msg, level)
  vim.notify('burnlint: ' .. msg, level or vim.log.levels.INFO)
end

--- `client:request` on 0.11+, `client.request` on 0.10.
local function request(client, method, params, handler, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function request_sync(client, method, params, timeout_ms, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request_sync(method, params, timeout_ms, bufnr)
  end
  return client.request_sync(method, params, timeout_ms, bufnr)
end

--- The burnlint client attached to `bufnr`, else any running burnlint client.
---@param bufnr integer
---@return vim.lsp.Client?
function M.client(bufnr)
  local clients = vim.lsp.get_clients({ bufnr = bufnr, name = CLIENT_NAME })
  if #clients == 0 then
    clients = vim.lsp.get_clients({ name = CLIENT_NAME })
  end
  return clients[1]
end

--- burnlint diagnostics of `bufnr` (optionally on one line), as `vim.Diagnostic`s.
---@param bufnr integer
---@param lnum? integer 0-based
---@return vim.Diagnostic[]
local function burnlint_diagnostics(bufnr, lnum)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr, lnum and { lnum = lnum } or nil)) do
    local lsp_diag = d.user_data and d.user_data.lsp or {}
    if d.source == CLIENT_NAME or lsp_diag.source == CLIENT_NAME then
      table.insert(out, d)
    end
  end
  return out
end

--- The code of the burnlint diagnostic under the cursor (the innermost one if several overlap),
--- else of the first burnlint diagnostic on the cursor's line.
---@return string?
function M.code_under_cursor()
  local bufnr = vim.api.nvim_get_current_buf()
  local pos = vim.api.nvim_win_get_cursor(0)
  local row, col = pos[1] - 1, pos[2]
  local best, best_width, first
  for _, d in ipairs(burnlint_diagnostics(bufnr, row)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    if code then
      first = first or code
      local end_lnum = d.end_lnum or d.lnum
      local end_col = d.end_col or d.col
      local after_start = d.lnum < row or col >= d.col
      local before_end = end_lnum > row or col < math.max(end_col, d.col + 1)
      if after_start and before_end then
        local width = (end_lnum - d.lnum) * 100000 + (end_col - d.col)
        if not best or width < best_width then
          best, best_width = code, width
        end
      end
    end
  end
  local code = best or first
  return code and tostring(code) or nil
end

--- Markdown (or plain text) from whatever shape `burnlint.explain` answers with.
---@return string?
local function explain_text(result)
  if type(result) == 'string' then
    return result
  end
  if type(result) == 'table' then
    for _, key in ipairs({ 'markdown', 'value', 'contents', 'text' }) do
      local v = result[key]
      if type(v) == 'string' then
        return v
      end
      if type(v) == 'table' and type(v.value) == 'string' then
        return v.value
      end
    end
  end
  return nil
end

--- Shows `text` in a floating window; returns its buffer and window.
---@param text string
---@param syntax string
---@return integer bufnr, integer winid
function M.show_float(text, syntax)
  local lines = vim.split(text, '\n', { plain = true })
  local float_opts = vim.deepcopy(M.options.float or {})
  -- A second call with the same focus_id would focus the old window instead of showing new text.
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if float_opts.focus_id and vim.w[win][float_opts.focus_id] then
      pcall(vim.api.nvim_win_close, win, true)
    end
  end
  return vim.lsp.util.open_floating_preview(lines, syntax, float_opts)
end

--- The server command from the resolved config, turned into `burnlint explain <text>` for when no
--- server is running (the CLI prints plain text).
---@return string[]?
local function cli_explain_cmd(text)
  local cmd
  if vim.fn.has('nvim-0.11') == 1 then
    local ok, config = pcall(function()
      return vim.lsp.config[CLIENT_NAME]
    end)
    cmd = ok and config and config.cmd or nil
  end
  if type(cmd) ~= 'table' then
    cmd = type(vim.g.burnlint_cmd) == 'table' and vim.g.burnlint_cmd or { 'burnlint', 'server' }
  end
  cmd = vim.deepcopy(cmd)
  if cmd[#cmd] ~= 'server' then
    return nil
  end
  cmd[#cmd] = 'explain'
  table.insert(cmd, text)
  return cmd
end

--- Explains a code, slug or panic text (default: the diagnostic under the cursor) in a float.
---@param text? string
---@param on_done? fun(ok: boolean, bufnr?: integer, winid?: integer)
function M.explain(text, on_done)
  on_done = on_done or function() end
  if not text or vim.trim(text) == '' then
    text = M.code_under_cursor()
    if not text then
      notify('no burnlint diagnostic under the cursor; try :BurnlintExplain BD001', vim.log.levels.WARN)
      return on_done(false)
    end
  end
  text = vim.trim(text)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)

  if not client then
    local cmd = cli_explain_cmd(text)
    if not cmd or vim.fn.executable(cmd[1]) == 0 then
      notify('the language server is not running and `burnlint` is not executable', vim.log.levels.ERROR)
      return on_done(false)
    end
    local res = vim.system(cmd, { text = true }):wait(M.options.timeout_ms)
    if res.code ~= 0 then
      notify(vim.trim((res.stderr or '') .. (res.stdout or '')), vim.log.levels.WARN)
      return on_done(false)
    end
    local fbuf, fwin = M.show_float(res.stdout, 'text')
    return on_done(true, fbuf, fwin)
  end

  local params = { command = EXPLAIN_COMMAND, arguments = { text } }
  request(client, 'workspace/executeCommand', params, function(err, result)
    if err then
      notify(err.message or vim.inspect(err), vim.log.levels.WARN)
      return on_done(false)
    end
    local md = explain_text(result)
    if not md or md == '' then
      notify('nothing known about ' .. vim.inspect(text), vim.log.levels.WARN)
      return on_done(false)
    end
    local fbuf, fwin = M.show_float(md, 'markdown')
    on_done(true, fbuf, fwin)
  end, bufnr)
end

--- Applies a code action's edit, then its command (the order the LSP spec asks for).
local function apply_action(client, action, bufnr)
  if action.edit then
    vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  end
  local command = action.command
  if type(command) == 'table' then
    request(client, 'workspace/executeCommand', {
      command = command.command,
      arguments = command.arguments,
    }, function() end, bufnr)
  end
end

--- Puts a provenance answer (`locations` in flow order, each with a `text`) in the quickfix list
--- and opens it.
local function show_locations(client, answer)
  local items = {}
  for _, location in ipairs(answer.locations or {}) do
    -- One at a time: `locations_to_items` sorts what it is given, and the order is the path's.
    local item = vim.lsp.util.locations_to_items({ location }, client.offset_encoding)[1]
    if item then
      item.text = location.text
      table.insert(items, item)
    end
  end
  vim.fn.setqflist({}, ' ', { title = 'burnlint: where the value came from', items = items })
  vim.cmd('botright copen')
end

--- Asks the server for the provenance of the finding at `arguments` ({ uri, line, character })
--- and shows it in the quickfix list.
local function provenance(client, arguments, bufnr, on_done)
  local params = { command = PROVENANCE_COMMAND, arguments = arguments }
  request(client, 'workspace/executeCommand', params, function(err, answer)
    if err then
      notify(err.message or vim.inspect(err), vim.log.levels.WARN)
      return on_done(false)
    end
    show_locations(client, answer or {})
    on_done(true)
  end, bufnr)
end

--- The path of the burnlint finding under the cursor, in the quickfix list.
---@param on_done? fun(ok: boolean)
function M.provenance(on_done)
  on_done = on_done or function() end
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    notify('the language server is not running', vim.log.levels.WARN)
    return on_done(false)
  end
  local position = vim.lsp.util.make_position_params(0, client.offset_encoding).position
  local uri = vim.uri_from_bufnr(bufnr)
  provenance(client, { uri, position.line, position.character }, bufnr, on_done)
end

-- The code action "Show where this value came from" runs the command here, on the client side,
-- so that its answer becomes a quickfix list.
vim.lsp.commands[PROVENANCE_COMMAND] = function(command, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if client then
    provenance(client, command.arguments, ctx.bufnr, function() end)
  end
end

local function is_fix_all(action)
  local kind = action.kind or ''
  return kind == FIX_ALL_KIND or vim.startswith(kind, FIX_ALL_KIND .. '.')
end

local function fix_all_params(client, bufnr)
  local last = math.max(vim.api.nvim_buf_line_count(bufnr) - 1, 0)
  local last_line = vim.api.nvim_buf_get_lines(bufnr, last, last + 1, false)[1] or ''
  local params = vim.lsp.util.make_given_range_params(
    { 1, 0 },
    { last + 1, #last_line },
    bufnr,
    client.offset_encoding
  )
  params.context = {
    diagnostics = vim.tbl_map(function(d)
      return d.user_data and d.user_data.lsp or {}
    end, burnlint_diagnostics(bufnr)),
    only = { FIX_ALL_KIND },
    triggerKind = 1, -- Invoked
  }
  return params
end

--- Applies the burnlint fix-all action(s) of a buffer; returns how many were applied (sync only).
---@param opts? { bufnr?: integer, sync?: boolean, timeout_ms?: integer, on_done?: fun(applied: integer) }
---@return integer?
function M.fix_all(opts)
  opts = opts or {}
  local bufnr = (opts.bufnr == nil or opts.bufnr == 0) and vim.api.nvim_get_current_buf() or opts.bufnr
  local on_done = opts.on_done or function() end
  local client = vim.lsp.get_clients({ bufnr = bufnr, name = CLIENT_NAME })[1]
  if not client then
    notify('the language server is not attached to this buffer', vim.log.levels.WARN)
    on_done(0)
    return 0
  end
  local params = fix_all_params(client, bufnr)

  local function handle(actions)
    local applied = 0
    for _, action in ipairs(actions or {}) do
      if is_fix_all(action) then
        if not action.edit and not action.command then
          local resolved = request_sync(
            client,
            'codeAction/resolve',
            action,
            opts.timeout_ms or M.options.timeout_ms,
            bufnr
          )
          action = resolved and resolved.result or action
        end
        apply_action(client, action, bufnr)
        applied = applied + 1
      end
    end
    if applied == 0 and not opts.sync then
      notify('nothing to fix')
    end
    on_done(applied)
    return applied
  end

  if opts.sync then
    local res = request_sync(
      client,
      'textDocument/codeAction',
      params,
      opts.timeout_ms or M.options.timeout_ms,
      bufnr
    )
    if not res or res.err then
      notify('fix-all failed: ' .. vim.inspect(res and res.err or 'timeout'), vim.log.levels.WARN)
      on_done(0)
      return 0
    end
    return handle(res.result)
  end

  request(client, 'textDocument/codeAction', params, function(err, result)
    if err then
      notify('fix-all failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.WARN)
      return on_done(0)
    end
    handle(result)
  end, bufnr)
  return nil
end

local function complete_codes()
  local seen, out = {}, {}
  for _, d in ipairs(burnlint_diagnostics(vim.api.nvim_get_current_buf())) do
    local code = d.code and tostring(d.code)
    if code and not seen[code] then
      seen[code] = true
      table.insert(out, code)
    end
  end
  table.sort(out)
  return out
end

local augroup = vim.api.nvim_create_augroup('burnlint', { clear = true })

---@param opts? burnlint.Opts
function M.setup(opts)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  vim.api.nvim_clear_autocmds({ group = augroup })

  if M.options.commands then
    vim.api.nvim_create_user_command('BurnlintExplain', function(args)
      M.explain(args.args)
    end, {
      nargs = '*',
      desc = 'burnlint: explain a code, slug or panic message (default: the diagnostic under the cursor)',
      complete = function(lead)
        return vim.tbl_filter(function(c)
          return vim.startswith(c, lead)
        end, complete_codes())
      end,
    })
    vim.api.nvim_create_user_command('BurnlintFixAll', function()
      M.fix_all()
    end, { nargs = 0, desc = 'burnlint: apply every burnlint fix in the buffer' })
    vim.api.nvim_create_user_command('BurnlintProvenance', function()
      M.provenance()
    end, { nargs = 0, desc = 'burnlint: where the value of the finding under the cursor came from' })
  end

  if M.options.inlay_hints then
    vim.api.nvim_create_autocmd('LspAttach', {
      group = augroup,
      desc = 'burnlint: show tensor-state inlay hints',
      callback = function(ev)
        local client = vim.lsp.get_client_by_id(ev.data.client_id)
        if client and client.name == CLIENT_NAME then
          vim.lsp.inlay_hint.enable(true, { bufnr = ev.buf })
        end
      end,
    })
  end

  if M.options.fix_all_on_save then
    vim.api.nvim_create_autocmd('BufWritePre', {
      group = augroup,
      pattern = '*.rs',
      desc = 'burnlint: fix all before writing',
      callback = function(ev)
        if vim.lsp.get_clients({ bufnr = ev.buf, name = CLIENT_NAME })[1] then
          M.fix_all({ bufnr = ev.buf, sync = true })
        end
      end,
    })
  end
end

return M
