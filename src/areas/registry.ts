import type { AreaFactory } from './area.js'
import { adminArea } from './admin/index.js'
import { coreArea } from './core/index.js'
import { quantumArea } from './quantum/index.js'
import { generalArea } from './general/index.js'
import { ledgerArea } from './ledger/index.js'

/** Every area this package ships, in mounting order. */
export const ALL_AREAS: readonly AreaFactory[] = [adminArea, coreArea, quantumArea, generalArea, ledgerArea]
