import {expect, it} from 'vitest'
import {COMMANDS} from '../../src/commands/list.js'
import {QUICK_COMMANDS} from '../../src/commands/quick-list.js'

// The quick bundle (dist/quick.cjs) runs these with the verbs; the whole one runs every command,
// so each quick command is the very definition the whole list holds.
it('holds each quick command in the one list, and the ones DESIGN §9 budgets', () => {
  for (const command of QUICK_COMMANDS) expect(COMMANDS, command.id).toContain(command)
  expect(QUICK_COMMANDS.map((command) => command.id)).toEqual(expect.arrayContaining(['tapir:run', 'status', 'stop', 'record']))
})
