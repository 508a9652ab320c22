/**
 * The part of SvelteKit's types the hook snippet of docs/e2e.md uses, as
 * `@sveltejs/kit` declares it: SvelteKit is not installed here.
 */
declare module '@sveltejs/kit' {
  export interface RequestEvent {
    request: Request
  }
  export type Handle = (input: { event: RequestEvent; resolve: (event: RequestEvent) => Response | Promise<Response> }) => Response | Promise<Response>
}
