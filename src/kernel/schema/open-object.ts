/**
 * The JSON Schema of an object that takes other keys, said explicitly: the
 * document drops the implicit `{}` zod writes for a loose object, and tools
 * then read the object as closed (Redocly checks examples so, generated
 * clients type it so). Pass to a loose object's `.meta()`.
 *
 * @example
 * z.looseObject({ id: z.int() }).meta(OPEN) // JSON Schema: { …, additionalProperties: true }
 */
export const OPEN = { additionalProperties: true } as const
