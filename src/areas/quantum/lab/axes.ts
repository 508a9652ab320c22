/** A unit vector in space. */
export type Vector = readonly [number, number, number]

/** The named axes (D17). */
export const NAMED_AXES = ['x-axis', 'y-axis', 'z-axis'] as const

/**
 * A measurement axis as text (D17): a named axis, or an angle in degrees such
 * as `22.5deg`. A literal type, so `'w-axis'` is a type error; the range
 * (−360 to 360) is the schema's.
 */
export type AxisName = (typeof NAMED_AXES)[number] | `${number}deg`

/** A measurement axis (D17): its canonical name and its direction. */
export interface Axis {
  /** `x-axis`, `y-axis`, `z-axis`, or an angle such as `22.5deg` (number written without padding). */
  name: AxisName
  vector: Vector
}

/** The axis used when a measurement names none: `z-axis` for every particle type (D17). */
export const DEFAULT_AXIS = 'z-axis'

/** Largest angle accepted, in degrees, either way round. */
export const MAX_ANGLE = 360

/** The accepted forms, as error messages and docs list them. */
export const ACCEPTED_AXES = `x-axis, y-axis, z-axis, or an angle in the x-z plane from -${MAX_ANGLE}deg to ${MAX_ANGLE}deg measured from the z-axis towards the x-axis, such as 22.5deg or -45deg`

const NAMED: Record<(typeof NAMED_AXES)[number], Vector> = {
  'x-axis': [1, 0, 0],
  'y-axis': [0, 1, 0],
  'z-axis': [0, 0, 1],
}

/**
 * Every accepted angle, range included: up to three digits and six decimals of
 * degrees from -360 to 360. One pattern for `parseAxis` and the OpenAPI
 * document (beside the named axes), so a client reading the document sends only
 * what is accepted.
 */
export const ANGLE_PATTERN = /^-?(?:(?:\d{1,2}|[0-2]\d{2}|3[0-5]\d)(?:\.\d{1,6})?|360(?:\.0{1,6})?)deg$/

/**
 * Parses a measurement axis (D17): `x-axis`, `y-axis`, `z-axis`, or an angle
 * in the x-z plane written like `22.5deg`, measured from the z-axis towards the
 * x-axis, so `0deg` is the z-axis and `90deg` the x-axis. `undefined` for
 * anything else (other spellings, units, ranges beyond ±360deg).
 *
 * @example
 * parseAxis('22.5deg') // { name: '22.5deg', vector: [0.3827, 0, 0.9239] }
 * parseAxis('north')   // undefined
 */
export function parseAxis(text: string): Axis | undefined {
  if (isNamedAxis(text)) return { name: text, vector: NAMED[text] }
  if (!ANGLE_PATTERN.test(text)) return undefined
  const degrees = Number(text.slice(0, -'deg'.length))
  const radians = (degrees * Math.PI) / 180
  // `+ 0` turns -0 into 0, so `-0deg` is named `0deg`.
  return { name: `${degrees + 0}deg`, vector: [Math.sin(radians), 0, Math.cos(radians)] }
}

function isNamedAxis(text: string): text is (typeof NAMED_AXES)[number] {
  return Object.hasOwn(NAMED, text)
}

/**
 * Cosine of the angle between two axes, clamped and rounded to 12 decimals so
 * that an axis compared with itself (or `90deg` with `x-axis`) gives exactly 1
 * and measurements along the same axis are certain, not merely near-certain.
 */
export function cosBetween(a: Axis, b: Axis): number {
  const dot = a.vector[0] * b.vector[0] + a.vector[1] * b.vector[1] + a.vector[2] * b.vector[2]
  return Math.min(1, Math.max(-1, Math.round(dot * 1e12) / 1e12))
}
