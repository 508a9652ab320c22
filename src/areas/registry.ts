import * as z from 'zod'
import type { SectionSchemas } from '../world/section.js'
import { adminArea } from './admin/index.js'
import type { AnyArea } from './area.js'
import { coreArea } from './core/index.js'
import { generalArea } from './general/index.js'
import { ledgerArea } from './ledger/index.js'
import { quantumArea } from './quantum/index.js'

/**
 * Every area this package ships, in mounting order: the one list of areas.
 * A new area is its folder and one entry here; its options, CLI flags,
 * collections in `sim.db`, scenario and state sections and fault-rule id
 * follow from its definition.
 */
export const ALL_AREAS = [adminArea, coreArea, quantumArea, generalArea, ledgerArea] as const satisfies readonly AnyArea[]

type Area = (typeof ALL_AREAS)[number]

/** Ids of the areas, as used by the `areas` option, `--root`, fault rules and the journal (D1). */
export type AreaId = Area['id']

/** Every area id, in mounting order. */
export const AREA_IDS = ALL_AREAS.map((area) => area.id) as [AreaId, ...AreaId[]]

/** An area by id, as options, fault rules and `--root` name them (D1). */
export const areaIdSchema = z.enum(AREA_IDS, `expected one of ${AREA_IDS.join(', ')}`)

/**
 * An area id from a flag's text: the id (`ledger`) or the letter (`E`, any
 * case); other text as it is, for `areaIdSchema` to refuse.
 *
 * @example
 * areaFromText('e') // 'ledger'
 */
export function areaFromText(text: string): string {
  return ALL_AREAS.find((area) => area.id === text || area.letter === text.toUpperCase())?.id ?? text
}

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never

/** Every area's options, top-level fields of the simulator's options. */
export type AreaOptionsShape = UnionToIntersection<Area['options']>
export const areaOptionsShape = Object.assign({}, ...ALL_AREAS.map((area) => area.options)) as AreaOptionsShape

/** Every area's collections, by name (`sim.db.products`...). */
export type AreaCollections = UnionToIntersection<CollectionsOf<Area>>

type CollectionsOf<A> = A extends AnyArea ? NonNullable<ReturnType<A['create']>['collections']> : never

/** Every area's members of the simulator (`sim.readings`). */
export type AreaApis = UnionToIntersection<ApiOf<Area>>

/** An area's `api`; none when it declares none (`unknown`). */
type ApiOf<A> = A extends AnyArea ? (unknown extends ReturnType<A['create']>['api'] ? never : NonNullable<ReturnType<A['create']>['api']>) : never

type AreaSection = Extract<Area['section'], SectionSchemas>

/** The areas' sections, in mounting order. */
export const AREA_SECTIONS = ALL_AREAS.flatMap((area): AreaSection[] => (area.section ? [area.section] : []))

/**
 * The areas' parts of the scenario (`scenarioSchema`) or state
 * (`stateSchema`) documents, as zod shape entries in mounting order.
 *
 * @example
 * z.strictObject({ seed: z.int().optional(), ...sectionShape('scenarioSchema') })
 */
export function sectionShape<K extends 'scenarioSchema' | 'stateSchema'>(which: K): { [S in AreaSection as S['key']]: S[K] } {
  return Object.fromEntries(AREA_SECTIONS.map((section) => [section.key, section[which]])) as { [S in AreaSection as S['key']]: S[K] }
}
