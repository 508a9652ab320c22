import type { RouteDefinition, RouteError } from '../routing/route.js'

/** The name of a route's own Bearer scheme (`security: { scheme: 'bearer' }`) in `components.securitySchemes`. */
export const BEARER_SCHEME = 'bearerAuth'

/** The Bearer scheme of the routes that declare one. */
const BEARER_DEFINITION = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'JWT',
  description: "A token from Area D's `POST /auth/login` (under `/general`), sent as `Authorization: Bearer <token>`.",
} as const

/**
 * A scheme that guards every route of an area from outside the routes (the
 * control token, checked by the HTTP server), as the document declares it.
 */
export interface AreaSecurity {
  /** Its name in `components.securitySchemes`, e.g. `controlToken`. */
  scheme: string
  /** Its Security Scheme Object. */
  definition: Readonly<Record<string, unknown>>
  /** Only some servers ask for it: calls without it are declared too (`[{scheme: []}, {}]`). */
  optional: boolean
  /** The errors of a call without it, which every guarded route may then answer. */
  errors: readonly Exclude<RouteError, string>[]
  /** Operation ids (the route's own, `getOpenApi`) it never guards. */
  exempt?: readonly string[]
}

/** What `operationSecurity` gives: the operation's `security` and the errors it adds. */
export interface OperationSecurity {
  security: Array<Record<string, string[]>>
  errors: readonly Exclude<RouteError, string>[]
}

/**
 * The `security` of a route's operation: its own Bearer scheme, else its
 * area's scheme (with `{}` beside it when optional), else `[]`, which says
 * that the operation needs none.
 *
 * @example
 * operationSecurity(route, controlToken) // { security: [{ controlToken: [] }, {}], errors: [...] }
 */
export function operationSecurity(route: RouteDefinition, area: AreaSecurity | undefined): OperationSecurity {
  if (route.security?.scheme === 'bearer') return { security: [{ [BEARER_SCHEME]: [] }], errors: [] }
  if (area === undefined || (route.operationId !== undefined && area.exempt?.includes(route.operationId))) return { security: [], errors: [] }
  return { security: area.optional ? [{ [area.scheme]: [] }, {}] : [{ [area.scheme]: [] }], errors: area.errors }
}

/** `components.securitySchemes`: the Bearer scheme when a route uses it, and the areas' schemes in use. */
export function securitySchemes(used: ReadonlySet<string>, areas: readonly AreaSecurity[]): Record<string, unknown> {
  const schemes: Record<string, unknown> = {}
  if (used.has(BEARER_SCHEME)) schemes[BEARER_SCHEME] = BEARER_DEFINITION
  for (const area of areas) if (used.has(area.scheme)) schemes[area.scheme] = area.definition
  return schemes
}
