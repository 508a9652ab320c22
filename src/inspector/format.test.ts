import { expect, it } from 'vitest'
import { counted } from './format.js'

it('counted: singular for one, plural otherwise', () => {
  expect(counted(1, 'command')).toBe('1 command')
  expect(counted(0, 'command')).toBe('0 commands')
  expect(counted(3, 'command')).toBe('3 commands')
  expect(counted(2, 'entry', 'entries')).toBe('2 entries')
})
