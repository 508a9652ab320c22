import { defineArea } from '../area.js'
import { adminRecording } from './recording.js'
import { adminRoutes } from './routes.js'

/** Area A, user administration, mounted at `/admin` by default (D1). Its users are the shared accounts (D5): no options, no section of its own. */
export const adminArea = defineArea({
  id: 'admin',
  letter: 'A',
  title: 'User administration',
  prefix: '/admin',
  options: {},
  section: undefined,
  recording: adminRecording,
  create: ({ accounts }) => ({ routes: adminRoutes({ accounts }) }),
})
export type * from './operations.js'
