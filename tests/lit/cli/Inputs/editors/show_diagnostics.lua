-- Run in a headless Neovim after the recipe under test: waits (60 s at
-- most) for the current buffer's diagnostics, writes them to $OUT as
--   NAME: N diagnostics
--   LINE:COL CODE FIRST LINE OF THE MESSAGE
-- and quits.
vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local diags = vim.diagnostic.get(0)
table.sort(diags, function(a, b)
  return a.lnum * 10000 + a.col < b.lnum * 10000 + b.col
end)
local out = { vim.fn.expand('%:t') .. ': ' .. #diags .. ' diagnostics' }
for _, d in ipairs(diags) do
  local first = vim.split(d.message, '\n')[1]
  table.insert(out, string.format('%d:%d %s %s', d.lnum + 1, d.col + 1,
                                  d.code or '-', first:sub(1, 80)))
end
vim.fn.writefile(out, os.getenv('OUT'))
vim.cmd('qa!')
