-- Headless Neovim end-to-end driver for the burnlint Neovim integration.
--
-- Run by tests/editors/test_neovim.py as
--   nvim --headless --clean -u tests/editors/nvim/init.lua <crate>/src/quant.rs
-- with these environment variables:
--   BURNLINT_NVIM_RTP      editors/nvim (the only thing added to 'runtimepath')
--   BURNLINT_TEST_CMD      JSON list: the server command, put into vim.g.burnlint_cmd
--   BURNLINT_TEST_OUT      where the JSON result goes
--   BURNLINT_TEST_MB       a comment with multibyte characters to insert before the seed call
--   BURNLINT_TEST_WAIT_MS  how long to wait for the first diagnostics
--   BURNLINT_TEST_ENCODING if set, the only position encoding Neovim offers (e.g. utf-16, as
--                          Neovim 0.10 does); unset, Neovim 0.11 offers utf-8, utf-16, utf-32
-- Everything observed is written to BURNLINT_TEST_OUT; the Python test makes the assertions.

local env = vim.env
local out_path = assert(env.BURNLINT_TEST_OUT, 'BURNLINT_TEST_OUT is not set')
local first_wait = tonumber(env.BURNLINT_TEST_WAIT_MS or '') or 30000
local STEP_WAIT = 10000
local SEED_CALL = 'dispatch::q_matmul('
local SEED_LNUM = 15

local result = {
  nvim = tostring(vim.version()),
  notifications = {},
  steps = {},
}

local function step(name)
  table.insert(result.steps, name)
end

-- Keep what the plugin and Neovim tell the user.
vim.notify = function(msg, level)
  table.insert(result.notifications, { msg = tostring(msg), level = level })
end

local function finish()
  local ok, encoded = pcall(vim.json.encode, result)
  if not ok then
    encoded = vim.json.encode({ error = 'could not encode the result: ' .. tostring(encoded) })
  end
  local f = assert(io.open(out_path, 'w'))
  f:write(encoded)
  f:close()
  vim.cmd('qall!')
end

local function wait(ms, cond)
  return vim.wait(ms, cond, 20)
end

local function diag_table(d)
  local lsp_diag = d.user_data and d.user_data.lsp or {}
  return {
    lnum = d.lnum,
    col = d.col,
    end_lnum = d.end_lnum,
    end_col = d.end_col,
    severity = d.severity,
    source = d.source,
    code = d.code and tostring(d.code) or nil,
    message = d.message,
    related = lsp_diag.relatedInformation and #lsp_diag.relatedInformation or 0,
    has_data = lsp_diag.data ~= nil,
    code_description = lsp_diag.codeDescription ~= nil,
  }
end

local function diagnostics(buf)
  return vim.tbl_map(diag_table, vim.diagnostic.get(buf))
end

local function seed_diag(buf)
  for _, d in ipairs(vim.diagnostic.get(buf, { lnum = SEED_LNUM })) do
    if d.source == 'burnlint' and tostring(d.code) == 'BD001' then
      return d
    end
  end
  return nil
end

local function line(buf, lnum)
  return vim.api.nvim_buf_get_lines(buf, lnum, lnum + 1, false)[1]
end

--- Text of every floating window, then closes them.
local function take_floats()
  local texts = {}
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      local fbuf = vim.api.nvim_win_get_buf(win)
      table.insert(texts, table.concat(vim.api.nvim_buf_get_lines(fbuf, 0, -1, false), '\n'))
      pcall(vim.api.nvim_win_close, win, true)
    end
  end
  return texts
end

local function float_count()
  local n = 0
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      n = n + 1
    end
  end
  return n
end

local function hover_text(res)
  local contents = res and res.result and res.result.contents
  if type(contents) == 'string' then
    return contents
  end
  if type(contents) == 'table' then
    if contents.value then
      return contents.value
    end
    local parts = {}
    for _, c in ipairs(contents) do
      table.insert(parts, type(c) == 'table' and c.value or tostring(c))
    end
    return table.concat(parts, '\n')
  end
  return nil
end

--- Runs :BurnlintExplain with `args` and returns the floating windows' text.
local function explain(args)
  take_floats()
  vim.cmd('BurnlintExplain ' .. args)
  wait(STEP_WAIT, function()
    return float_count() > 0
  end)
  return take_floats()
end

--- The preferred BD001 quick fix through Neovim's own code action UI, applied without a prompt.
local function apply_preferred_fix(buf, before)
  local d = assert(seed_diag(buf), 'no BD001 diagnostic to fix')
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  vim.lsp.buf.code_action({
    apply = true,
    filter = function(a)
      return a.isPreferred == true and vim.startswith(a.title or '', 'burnlint (BD001)')
    end,
  })
  local changed = wait(STEP_WAIT, function()
    return line(buf, SEED_LNUM) ~= before
  end)
  return changed, line(buf, SEED_LNUM)
end

local function reset(buf, lines)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  return wait(STEP_WAIT, function()
    local d = seed_diag(buf)
    return d ~= nil and line(buf, SEED_LNUM) == lines[SEED_LNUM + 1]
  end)
end

local function run()
  local buf = vim.api.nvim_get_current_buf()
  result.file = vim.api.nvim_buf_get_name(buf)
  result.filetype = vim.bo[buf].filetype
  result.config_files = vim.api.nvim_get_runtime_file('lsp/burnlint.lua', true)
  local config = vim.lsp.config.burnlint or {}
  result.config = {
    cmd = config.cmd,
    filetypes = config.filetypes,
    root_markers = config.root_markers,
    settings = config.settings,
  }
  local original = vim.api.nvim_buf_get_lines(buf, 0, -1, false)

  -- 1. Diagnostics (pushed: Neovim 0.11 cannot be asked to re-pull, so the server pushes).
  step('diagnostics')
  result.diag_ok = wait(first_wait, function()
    return seed_diag(buf) ~= nil
  end)
  result.diagnostics = diagnostics(buf)
  local client = vim.lsp.get_clients({ bufnr = buf, name = 'burnlint' })[1]
  if client then
    result.client = {
      offset_encoding = client.offset_encoding,
      root_dir = client.root_dir,
      server_info = client.server_info,
      execute_commands = (client.server_capabilities.executeCommandProvider or {}).commands,
    }
  end
  if not result.diag_ok or not client then
    return
  end
  local d = seed_diag(buf)

  -- 2. Hover at the start of the diagnostic.
  step('hover')
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  local hover = client:request_sync(
    'textDocument/hover',
    vim.lsp.util.make_position_params(0, client.offset_encoding),
    STEP_WAIT,
    buf
  )
  result.hover = hover_text(hover)
  result.hover_error = hover and hover.err and vim.inspect(hover.err) or nil

  -- 2b. Inlay hints: the server's tensor states, as Neovim keeps them (the plugin's
  -- `inlay_hints` option turned them on when the client attached).
  step('inlay_hints')
  result.inlay_enabled = vim.lsp.inlay_hint.is_enabled({ bufnr = buf })
  wait(STEP_WAIT, function()
    return #vim.lsp.inlay_hint.get({ bufnr = buf }) > 0
  end)
  result.inlay_hints = vim.tbl_map(function(h)
    local hint = h.inlay_hint
    local label = hint.label
    if type(label) == 'table' then
      label = table.concat(vim.tbl_map(function(part)
        return part.value
      end, label))
    end
    local tooltip = hint.tooltip
    if tooltip == nil then
      -- The server leaves tooltips for inlayHint/resolve (Neovim offers it).
      local resolved = client:request_sync('inlayHint/resolve', hint, STEP_WAIT, buf)
      tooltip = resolved and resolved.result and resolved.result.tooltip
    end
    if type(tooltip) == 'table' then
      tooltip = tooltip.value
    end
    return { lnum = hint.position.line, character = hint.position.character, label = label, tooltip = tooltip }
  end, vim.lsp.inlay_hint.get({ bufnr = buf }))

  -- 2c. Provenance: the code action on the finding, then :BurnlintProvenance, fill the quickfix
  -- list with the value's path.
  step('provenance')
  local win = vim.api.nvim_get_current_win()
  local function quickfix()
    local items = vim.tbl_map(function(item)
      return { file = vim.api.nvim_buf_get_name(item.bufnr), lnum = item.lnum, col = item.col, text = item.text }
    end, vim.fn.getqflist())
    vim.cmd('cclose')
    vim.api.nvim_set_current_win(win)
    vim.fn.setqflist({}, 'r')
    return items
  end
  vim.fn.setqflist({}, 'r')
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  vim.lsp.buf.code_action({
    apply = true,
    filter = function(a)
      return vim.startswith(a.title or '', 'Show where this value came from')
    end,
  })
  wait(STEP_WAIT, function()
    return #vim.fn.getqflist() > 0
  end)
  result.provenance_title = vim.fn.getqflist({ title = 1 }).title
  result.provenance = quickfix()
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  vim.cmd('BurnlintProvenance')
  wait(STEP_WAIT, function()
    return #vim.fn.getqflist() > 0
  end)
  result.provenance_command = quickfix()

  -- 3. :BurnlintExplain with a code, with the diagnostic under the cursor, with panic text.
  step('explain')
  result.explain_code = explain('BD001')
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col + 2 })
  result.explain_cursor = explain('')
  result.explain_panic = explain('an autodiff float primitive must have an enabled autodiff context')

  -- 4. The code actions offered at the seed, and the preferred BD001 fix applied.
  step('code_actions')
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  local params = vim.lsp.util.make_range_params(0, client.offset_encoding)
  params.context = {
    diagnostics = vim.tbl_map(function(x)
      return x.user_data.lsp
    end, vim.diagnostic.get(buf, { lnum = SEED_LNUM })),
    triggerKind = 1,
  }
  local actions = client:request_sync('textDocument/codeAction', params, STEP_WAIT, buf)
  result.code_actions = vim.tbl_map(function(a)
    return { title = a.title, kind = a.kind, preferred = a.isPreferred == true, has_edit = a.edit ~= nil }
  end, (actions and actions.result) or {})

  step('quick_fix')
  local changed, fixed = apply_preferred_fix(buf, original[SEED_LNUM + 1])
  result.quick_fix = { changed = changed, line = fixed }
  result.quick_fix.diag_cleared = wait(STEP_WAIT, function()
    return seed_diag(buf) == nil
  end)
  result.diagnostics_after_fix = diagnostics(buf)

  -- 5. :BurnlintFixAll on the original text.
  step('fix_all')
  result.fix_all = { reset = reset(buf, original) }
  vim.cmd('BurnlintFixAll')
  result.fix_all.changed = wait(STEP_WAIT, function()
    return line(buf, SEED_LNUM) ~= original[SEED_LNUM + 1]
  end)
  result.fix_all.line = line(buf, SEED_LNUM)

  -- 6. fix_all_on_save: :write applies the fix-all action before the file is written.
  step('fix_on_save')
  result.fix_on_save = { reset = reset(buf, original) }
  require('burnlint').setup({ fix_all_on_save = true })
  vim.cmd('silent write')
  require('burnlint').setup({})
  result.fix_on_save.line = line(buf, SEED_LNUM)
  result.fix_on_save.modified = vim.bo[buf].modified

  -- 7. Multibyte text before the seed call: columns are byte offsets in Neovim (utf-8).
  step('multibyte')
  local mb = env.BURNLINT_TEST_MB or '/* λ→é */ '
  local seed_line = original[SEED_LNUM + 1]
  local at = assert(seed_line:find(SEED_CALL, 1, true))
  local mb_line = seed_line:sub(1, at - 1) .. mb .. seed_line:sub(at)
  local mb_lines = vim.deepcopy(original)
  mb_lines[SEED_LNUM + 1] = mb_line
  result.multibyte = { reset = reset(buf, original) }
  vim.api.nvim_buf_set_lines(buf, SEED_LNUM, SEED_LNUM + 1, false, { mb_line })
  result.multibyte.moved = wait(STEP_WAIT, function()
    local x = seed_diag(buf)
    return x ~= nil and x.col ~= d.col
  end)
  local mbd = seed_diag(buf)
  result.multibyte.diagnostic = mbd and diag_table(mbd) or nil
  result.multibyte.line = line(buf, SEED_LNUM)
  if mbd then
    local ok, fixed_mb = apply_preferred_fix(buf, mb_line)
    result.multibyte.fix_changed = ok
    result.multibyte.fixed_line = fixed_mb
  end

  -- 8. Shutdown: the server must exit on shutdown + exit.
  step('shutdown')
  client:stop()
  result.stopped = wait(STEP_WAIT, function()
    return result.server_exit ~= nil
  end)
  if not result.stopped then
    client:stop(true)
  end

  -- 9. With no server running, :BurnlintExplain falls back to the `burnlint explain` CLI.
  step('explain_cli')
  wait(STEP_WAIT, function()
    return #vim.lsp.get_clients({ name = 'burnlint' }) == 0
  end)
  result.explain_cli = explain('BD001')
end

local function setup()
  vim.opt.runtimepath:prepend((assert(env.BURNLINT_NVIM_RTP, 'BURNLINT_NVIM_RTP is not set')))
  vim.opt.swapfile = false
  vim.g.burnlint_cmd = vim.json.decode((assert(env.BURNLINT_TEST_CMD, 'BURNLINT_TEST_CMD is not set')))
  if vim.lsp.log and vim.lsp.log.set_level then
    vim.lsp.log.set_level(vim.log.levels.WARN)
  end
  -- The test's own addition to the config: learn how the server exits.
  local encoding = env.BURNLINT_TEST_ENCODING
  vim.lsp.config('burnlint', {
    on_exit = function(code, signal)
      result.server_exit = { code = code, signal = signal }
    end,
    before_init = function(params)
      if encoding and encoding ~= '' then
        params.capabilities.general.positionEncodings = { encoding }
      end
    end,
  })
  -- Record what Neovim answers to workspace/configuration, as the JSON the server receives.
  local configuration = vim.lsp.handlers['workspace/configuration']
  vim.lsp.handlers['workspace/configuration'] = function(err, params, ctx, config)
    local response = configuration(err, params, ctx, config)
    result.configuration = {
      items = params and params.items,
      -- Kept as a string: decoding and encoding again would turn {} into [].
      response_json = vim.json.encode(response or vim.NIL),
    }
    return response
  end
  vim.lsp.enable('burnlint')
  require('burnlint').setup({ inlay_hints = true })
end

-- A failure here must still end Neovim: a headless Neovim with an error would wait forever.
local setup_ok, setup_err = xpcall(setup, debug.traceback)
if not setup_ok then
  result.error = 'setup: ' .. tostring(setup_err)
  finish()
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    vim.schedule(function()
      local ok, err = xpcall(run, debug.traceback)
      if not ok then
        result.error = tostring(err)
      end
      finish()
    end)
  end,
})
