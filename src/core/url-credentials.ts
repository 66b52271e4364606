/**
 * The one way a URL's user and password are handled (a server's base URL, a dataset mirror):
 * taken out before the URL is used or shown, and sent as `Authorization: Basic` instead
 * (fetch refuses a URL that carries them, and a message must never show them).
 */

/** A URL with its user and password taken out, and the `Authorization` value they stand for. */
export interface UrlWithoutCredentials {
  /** The URL as given, less `user:password@` (unchanged when it has none or is not a URL). */
  readonly url: string;
  /** `Basic <base64 of user:password>` (percent-decoded, as a browser sends it); null without credentials. */
  readonly basicAuthorization: string | null;
}

/**
 * Takes a URL's credentials out (see above). An unparsable string is returned as it is:
 * parsing it later gives the message.
 */
export function withoutCredentials(url: string): UrlWithoutCredentials {
  if (!URL.canParse(url.trim())) return { url, basicAuthorization: null };
  const u = new URL(url.trim());
  if (u.username === '' && u.password === '') return { url, basicAuthorization: null };
  const decoded = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const basic = base64OfUtf8(`${decoded(u.username)}:${decoded(u.password)}`);
  u.username = '';
  u.password = '';
  return { url: u.href, basicAuthorization: `Basic ${basic}` };
}

function base64OfUtf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
