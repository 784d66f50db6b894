/**
 * The part of oidc-provider 8 this folder uses. The package ships no type declarations and
 * @types/oidc-provider is not a dependency; these follow node_modules/oidc-provider/lib/provider.js
 * and the helpers in node_modules/oidc-provider/lib/helpers/defaults.js.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface InteractionPrompt {
    name: string;
    reasons: string[];
    details: {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
  }

  export interface Interaction {
    uid: string;
    prompt: InteractionPrompt;
    params: Record<string, unknown> & { client_id?: string };
    session?: { accountId?: string };
    grantId?: string;
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface GrantConstructor {
    new (properties: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }

  export interface InteractionResult {
    login?: { accountId: string };
    consent?: { grantId: string };
    error?: string;
    error_description?: string;
  }

  export interface KoaContextWithOidc {
    host: string;
    type: string;
    body: unknown;
    set(field: string, value: string): void;
    oidc: { client?: { clientId: string; clientName?: string } };
  }

  export interface KoaRequestContext {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
  }

  export interface TokenForClaims {
    kind: string;
    accountId?: string;
    scope?: string;
  }

  export const errors: {
    InvalidTarget: new (description?: string) => Error;
  };

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (request: IncomingMessage, response: ServerResponse) => Promise<void>;
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<Interaction>;
    interactionFinished(
      request: IncomingMessage,
      response: ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    readonly Grant: GrantConstructor;
    /** The client model; its prototype's redirect checks may be overridden (oidc-provider's recipe). */
    readonly Client: { prototype: object };
    on(event: string, listener: (...args: unknown[]) => void): this;
    /** Adds a Koa middleware in front of the provider's routes. */
    use(middleware: (ctx: KoaRequestContext, next: () => Promise<void>) => Promise<void>): void;
  }
}
