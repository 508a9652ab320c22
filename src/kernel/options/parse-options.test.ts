import * as z from 'zod'
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../errors/config-error.js'
import { ScenarioError } from '../errors/scenario-error.js'
import { fieldsOf } from './option-fields.js'
import { integerText, option } from './option-meta.js'
import { flagValue, parseOptions } from './parse-options.js'

const COUNT = 'expected an integer of 0 or more'
const schema = z.object({
  size: option(z.int(COUNT).min(0, COUNT).default(10), { cli: { flag: '-n, --size <n>', description: 'how many', fromText: integerText } }),
  mode: option(z.enum(['a', 'b'], 'expected one of a, b').optional(), { label: 'mode of play', cli: { flag: '--mode <mode>', description: 'which' } }),
  token: option(z.string().min(1, 'expected a token').optional(), { secret: true, cli: { flag: '--token <token>', description: 'secret' } }),
  nested: z.object({ depth: option(z.int(COUNT).min(0, COUNT).default(1), { cli: { flag: '--depth <n>', description: 'deep', fromText: integerText } }) }).prefault({}),
  rules: option(z.array(z.object({ status: z.literal(503, 'must be 503') })).optional(), { document: 'rules option' }),
  plain: z.boolean('expected true or false').optional(),
})

describe('parseOptions', () => {
  it('fills in the defaults and keeps what is valid', () => {
    expect(parseOptions(schema, { mode: 'b' })).toEqual({ size: 10, mode: 'b', nested: { depth: 1 } })
  })

  it('reports the first problem on one line: the option, its value, its flag', () => {
    const attempt = () => parseOptions(schema, { size: -1, mode: 'c' })
    expect(attempt).toThrow(ConfigError)
    expect(attempt).toThrow('Invalid size "-1" (--size): expected an integer of 0 or more.')
    expect(() => parseOptions(schema, { nested: { depth: 'x' } })).toThrow('Invalid nested.depth "x" (--depth): expected an integer of 0 or more.')
    expect(() => parseOptions(schema, { plain: 'yes' })).toThrow('Invalid plain "yes": expected true or false.')
  })

  it('names an option by its label, with its path and flag after it, and never shows a secret', () => {
    expect(() => parseOptions(schema, { mode: 'c' })).toThrow('Invalid mode of play "c" (mode, --mode): expected one of a, b.')
    expect(() => parseOptions(schema, { token: '' })).toThrow('Invalid token (--token): expected a token.')
  })

  it("lists a document option's problems like a scenario's", () => {
    const attempt = () => parseOptions(schema, { rules: [{ status: 503 }, { status: 418 }] })
    expect(attempt).toThrow(ScenarioError)
    expect(attempt).toThrow('Invalid rules option: 1.status: must be 503')
  })
})

describe('flagValue', () => {
  const [size, mode, token] = fieldsOf(schema)

  it('turns the text into the value the option takes', () => {
    expect(flagValue(size!, '42')).toEqual({ value: 42 })
  })

  it("reports a bad value with the option's own message, by its label when it has one", () => {
    expect(flagValue(size!, '1e6')).toEqual({ error: 'expected an integer of 0 or more.' })
    expect(flagValue(mode!, 'c')).toEqual({ error: 'Invalid mode of play "c": expected one of a, b.' })
    expect(flagValue(token!, '')).toEqual({ error: 'expected a token.' })
  })

  it('lists the options with flags, nested ones by their path, with their defaults', () => {
    expect(fieldsOf(schema).map(({ path, defaultValue }) => [path.join('.'), defaultValue])).toEqual([
      ['size', 10],
      ['mode', undefined],
      ['token', undefined],
      ['nested.depth', 1],
      ['rules', undefined],
    ])
  })
})
