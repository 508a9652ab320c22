import * as z from 'zod'

/**
 * Where a flag is listed in `--help`, as `serve --help` groups its options:
 * how to start, what the world is, what the network may do, what is kept in
 * files and shared with replicas, what is printed.
 */
export type FlagGroup = 'start' | 'world' | 'network' | 'files' | 'output'

/** How an option is set on the command line. */
export interface OptionFlag {
  /** Commander's syntax: `--sensor-window <points>`, `-p, --port <port>`. */
  flag: string
  /** The help text; the default is added from the schema (or `defaultText`). */
  description: string
  /** The default as `--help` shows it, when the schema's own (e.g. milliseconds) reads badly. */
  defaultText?: string
  /**
   * The option's value from the flag's text, before the schema checks it
   * (digits to a number, a duration to milliseconds); may throw with a message
   * of its own. Default: the text itself.
   */
  fromText?: (text: string) => unknown
  /** May be given more than once; the option is the list of values. */
  repeatable?: boolean
  /** An environment variable read when the flag is absent. */
  env?: string
  /** Where `--help` lists it; default `'world'`: the simulator's and the areas' options shape the world. */
  group?: FlagGroup
}

/** What an option says about itself, besides its rules: how messages name it and how the CLI sets it. */
export interface OptionMeta {
  /** Words naming the option in messages (`block time`); default: its path (`blockTime`). */
  label?: string
  /** A secret: its value is never shown in a message. */
  secret?: boolean
  /**
   * Checked as a document of its own (fault rules): a problem is reported
   * like a scenario's, with its path inside the document, `Invalid <document>: 0.status: …`.
   */
  document?: string
  cli?: OptionFlag
}

/** Option schemas' metadata: static, like the schemas themselves (nothing per simulator). */
const registry = z.registry<OptionMeta>()

/**
 * Gives an option schema its label, its flag and the like; returns the same
 * schema, so it composes in a `z.object` shape.
 *
 * @example
 * const seed = option(z.int('expected an integer').optional(), { cli: { flag: '--seed <n>', description: 'seed of every random value' } })
 */
export function option<S extends z.ZodType>(schema: S, meta: OptionMeta): S {
  registry.add(schema, meta)
  return schema
}

/** The metadata `option()` gave `schema`, if any. */
export function optionMeta(schema: z.ZodType): OptionMeta | undefined {
  return registry.get(schema)
}

/**
 * A whole number from digits (`-12`, `4000`); any other text is kept as it
 * is, for the schema to refuse with its own message (`1e6`, `lots`).
 *
 * @example
 * integerText('42') // 42
 */
export function integerText(text: string): number | string {
  return /^-?\d+$/.test(text) ? Number(text) : text
}
