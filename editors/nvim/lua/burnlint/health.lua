--- :checkhealth burnlint
local M = {}

function M.check()
  local health = vim.health
  health.start('burnlint')

  if vim.fn.has('nvim-0.11') == 1 then
    health.ok('Neovim ' .. tostring(vim.version()) .. ': `vim.lsp.enable("burnlint")` is available')
  elseif vim.fn.has('nvim-0.10') == 1 then
    health.warn('Neovim 0.10: start the server with `vim.lsp.start` (see editors/nvim/README.md)')
  else
    health.error('Neovim 0.10 or newer is needed')
  end

  local files = vim.api.nvim_get_runtime_file('lsp/burnlint.lua', true)
  if #files > 0 then
    health.ok('config found: ' .. table.concat(files, ', '))
  else
    health.warn('lsp/burnlint.lua is not on the runtimepath; add editors/nvim to it')
  end

  local cmd
  if vim.fn.has('nvim-0.11') == 1 then
    local ok, config = pcall(function()
      return vim.lsp.config.burnlint
    end)
    cmd = ok and config and config.cmd or nil
  end
  cmd = cmd or vim.g.burnlint_cmd or { 'burnlint', 'server' }
  if type(cmd) == 'table' then
    if vim.fn.executable(cmd[1]) == 1 then
      health.ok('server command: ' .. table.concat(cmd, ' '))
    else
      health.error(
        ('`%s` is not executable'):format(cmd[1]),
        { 'pip install burnlint', 'or set vim.g.burnlint_cmd = { "/path/to/python", "-m", "burnlint", "server" }' }
      )
    end
  else
    health.info('server command is a function')
  end

  local clients = vim.lsp.get_clients({ name = 'burnlint' })
  if #clients == 0 then
    health.info('no burnlint client is running (open a Rust file)')
  end
  for _, client in ipairs(clients) do
    health.ok(
      ('client %d running, root %s, position encoding %s'):format(
        client.id,
        client.root_dir or '(none)',
        client.offset_encoding
      )
    )
  end
end

return M
