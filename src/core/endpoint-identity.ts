/** A server's identity in stored data: never credentials, query or fragment. */
export interface EndpointIdentity {
  readonly scheme: string;
  readonly host: string;
  readonly port: number;
  readonly path: string;
}

/**
 * What a request carried as `Authorization`, never its value: a key, or the user and password
 * of the base URL (a key given wins). A stored run records it so a resume asks for it again.
 */
export type SentCredentials = 'key' | 'user and password';
