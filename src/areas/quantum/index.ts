import { defineArea } from '../area.js'
import { createQuantumCollections } from './collections.js'
import { ParticleLab } from './lab/particle-lab.js'
import { Platform } from './platform.js'
import { quantumRecording } from './recording.js'
import { quantumRoutes } from './routes.js'
import { quantumSection, quantumSectionSchemas } from './section.js'

/** Area C, entangled particles, mounted at `/quantum` by default (D1). */
export const quantumArea = defineArea({
  id: 'quantum',
  letter: 'C',
  title: 'Quantum: entangled particles',
  prefix: '/quantum',
  options: {},
  section: quantumSectionSchemas,
  recording: quantumRecording,
  create({ world }) {
    const collections = createQuantumCollections()
    const lab = new ParticleLab(world, collections)
    const platform = new Platform()
    return {
      routes: quantumRoutes({ world, lab, platform }),
      collections,
      section: quantumSection(world, lab, platform),
    }
  },
})

export { quantumScenario, quantumState } from './schemas.js'
export type { QuantumCollections } from './collections.js'
export type * from './operations.js'
