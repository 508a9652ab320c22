import type { AreaId } from '../areas/registry.js'
import type { Check } from './check.js'
import { adminUserChecks } from './checks/admin-checks.js'
import { adminListChecks } from './checks/admin-list-checks.js'
import { coreChecks } from './checks/core-checks.js'
import { generalAuthChecks } from './checks/general-auth-checks.js'
import { generalChecks } from './checks/general-checks.js'
import { ledgerChecks } from './checks/ledger-checks.js'
import { quantumChecks } from './checks/quantum-checks.js'

/** Every check, area by area (A to E), in the order they run and are reported. */
export const ALL_CHECKS: readonly Check[] = [...adminUserChecks, ...adminListChecks, ...coreChecks, ...quantumChecks, ...generalAuthChecks, ...generalChecks, ...ledgerChecks]

/** The checks of some areas whose names start with one of `only` (all when `only` is empty). */
export function selectChecks(areas: readonly AreaId[], only: readonly string[] = []): Check[] {
  return ALL_CHECKS.filter((item) => areas.includes(item.area) && (only.length === 0 || only.some((prefix) => item.name.startsWith(prefix))))
}
