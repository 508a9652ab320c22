import type { Command, Option } from 'commander'
import type { FlagGroup } from '../kernel/options/option-meta.js'

/** The headings of `serve --help`, in the order it shows them. */
export const FLAG_GROUP_HEADINGS: Readonly<Record<FlagGroup, string>> = {
  start: 'Start:',
  world: 'World:',
  network: 'Network and safety:',
  files: 'Replicas and files:',
  output: 'Output:',
}

const ORDER = Object.keys(FLAG_GROUP_HEADINGS) as FlagGroup[]

/**
 * Adds options to a command under their groups' headings, the groups in
 * `FLAG_GROUP_HEADINGS` order and the options of a group in the order given
 * (commander shows a heading where its first option was added). The help
 * option goes under `output`, so no option is left under a bare `Options:`.
 *
 * @example
 * addGroupedOptions(command, [{ option: new Option('--watch'), group: 'start' }])
 */
export function addGroupedOptions(command: Command, options: ReadonlyArray<{ option: Option; group: FlagGroup }>): Command {
  const sorted = [...options].sort((a, b) => ORDER.indexOf(a.group) - ORDER.indexOf(b.group))
  for (const { option, group } of sorted) command.addOption(option.helpGroup(FLAG_GROUP_HEADINGS[group]))
  return command.optionsGroup(FLAG_GROUP_HEADINGS.output).helpOption(true)
}
