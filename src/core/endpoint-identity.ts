/** A server's identity in stored data: never credentials, query or fragment. */
export interface EndpointIdentity {
  readonly scheme: string;
  readonly host: string;
  readonly port: number;
  readonly path: string;
}
