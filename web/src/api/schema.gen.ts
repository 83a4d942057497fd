/**
 * Hand-written stand-in for the file openapi-typescript generates from web/openapi.json
 * (`npm run gen:api`). It mirrors docs/API.md and is overwritten by the generator.
 */
export interface paths {
  "/v1/auth/config": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["PublicConfig"] } };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/auth/signup": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody: { content: { "application/json": components["schemas"]["SignupRequest"] } };
      responses: {
        201: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["AuthResponse"] } };
        409: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
        422: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/auth/login": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody: { content: { "application/json": components["schemas"]["LoginRequest"] } };
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["AuthResponse"] } };
        401: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
        429: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/auth/refresh": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody: { content: { "application/json": components["schemas"]["RefreshRequest"] } };
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["AuthResponse"] } };
        401: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/auth/logout": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody: { content: { "application/json": components["schemas"]["LogoutRequest"] } };
      responses: {
        204: { headers: { [name: string]: unknown }; content?: never };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/auth/me": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["User"] } };
        401: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/auth/invitations/{token}": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path: { token: string }; cookie?: never };
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["InvitationInfo"] } };
        404: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/auth/invitations/{token}/accept": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: {
      parameters: { query?: never; header?: never; path: { token: string }; cookie?: never };
      requestBody: { content: { "application/json": components["schemas"]["AcceptInvitationRequest"] } };
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["AuthResponse"] } };
        404: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
        422: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/customer": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["Customer"] } };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/account": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["CloudAccount"][] } };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/users": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["User"][] } };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/users/invite": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody: { content: { "application/json": components["schemas"]["InviteRequest"] } };
      responses: {
        201: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["InviteResponse"] } };
        403: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
        409: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
        422: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/users/{id}": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path: { id: number }; cookie?: never };
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["User"] } };
        404: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
      };
    };
    put?: never;
    post?: never;
    delete: {
      parameters: { query?: never; header?: never; path: { id: number }; cookie?: never };
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["MessageResponse"] } };
        403: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
        404: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/users/{id}/role": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put: {
      parameters: { query?: never; header?: never; path: { id: number }; cookie?: never };
      requestBody: { content: { "application/json": components["schemas"]["UpdateUserRequest"] } };
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["User"] } };
        400: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
        403: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
        404: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
        422: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["ErrorBody"] } };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    User: import("./types.hand").User;
    Role: import("./types.hand").Role;
    UserStatus: import("./types.hand").UserStatus;
    AuthResponse: import("./types.hand").AuthResponse;
    SignupRequest: import("./types.hand").SignupRequest;
    LoginRequest: import("./types.hand").LoginRequest;
    RefreshRequest: import("./types.hand").RefreshRequest;
    LogoutRequest: import("./types.hand").LogoutRequest;
    Customer: import("./types.hand").Customer;
    CloudAccount: import("./types.hand").CloudAccount;
    InviteRequest: import("./types.hand").InviteRequest;
    InviteResponse: import("./types.hand").InviteResponse;
    UpdateUserRequest: import("./types.hand").UpdateUserRequest;
    MessageResponse: import("./types.hand").MessageResponse;
    ErrorBody: import("./types.hand").ErrorBody;
    PublicConfig: import("./types.hand").PublicConfig;
    FeatureFlags: import("./types.hand").FeatureFlags;
    InvitationInfo: import("./types.hand").InvitationInfo;
    AcceptInvitationRequest: import("./types.hand").AcceptInvitationRequest;
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
