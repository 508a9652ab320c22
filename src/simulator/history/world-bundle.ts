import * as z from 'zod'
import { OPEN } from '../../kernel/schema/open-object.js'
import { isoTimestamp } from '../../kernel/time/iso-timestamp.js'
import { PACKAGE_VERSION } from '../../package-version.js'
import { journalEntrySchema } from '../journal/journal-entry.js'

/** A command as a bundle keeps it: the write request, with its instant (passwords sealed: see docs/forensics.md). */
export const bundleCommandSchema = z
  .strictObject({
    method: z.string(),
    url: z.string().describe('The absolute URL it was sent to.'),
    body: z.string().optional().describe('The body text, each password replaced by a token (`sealed`).'),
    sealed: z.record(z.string(), z.string()).optional().describe("What each token stands for: the password's PBKDF2 keys under the world's salts, never the password."),
    at: z.number().describe('The source clock when it was accepted (ms since 1970); applied with the clock there.'),
  })
  .meta({ id: 'BundleCommand' })

/**
 * A world's bundle (issue 35): everything that rebuilds it, byte for byte,
 * on any machine with this package: the options that shape answers, the world
 * as it stood before its first kept command, and every command since, in
 * order; with its request journal (secrets redacted) to read beside them.
 *
 * @example
 * const bundle = worldBundleSchema.parse(await (await fetch(`${base}/__mock/bundle`)).json())
 */
export const worldBundleSchema = z
  .strictObject({
    format: z.literal(1),
    package: z.literal('multi-area-mock'),
    version: z.string().describe('The package version that took it; another version replays it only if it gives the same world.'),
    world: z.string().nullable().describe('The isolated world it is of; null for the default world.'),
    takenAt: isoTimestamp.describe("The world's clock when it was taken."),
    state: z
      .strictObject({ sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.int().min(0) })
      .describe('The world (`GET /__mock/state`) when it was taken: what a replay must give.'),
    options: z.looseObject({}).meta(OPEN).describe('The simulator options that shape answers (seed, clock, areas, limits, registered scenarios…).'),
    start: z.looseObject({}).meta(OPEN).describe('The world before the first kept command: its state (password hashes included), clock, fault rules and what a reset returns to.'),
    folded: z.int().min(0).describe('Commands older than `start`, folded into it (a long history is kept from a later start).'),
    commands: z.array(bundleCommandSchema).describe('Every command applied to the world since `start`, in order.'),
    journal: z.array(journalEntrySchema).describe('The requests the world answered, oldest first, secrets redacted (`GET /__mock/requests`).'),
  })
  .meta({ id: 'WorldBundle', title: 'multi-area-mock world bundle' })
export type WorldBundle = z.infer<typeof worldBundleSchema>

/** The version a bundle is taken with. */
export const BUNDLE_VERSION = PACKAGE_VERSION
