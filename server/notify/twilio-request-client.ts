import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient.js';
import type Response from 'twilio/lib/http/response.js';

/** Twilio's REST origin, which every URI the SDK builds starts with. */
const TWILIO_API_ORIGIN = 'https://api.twilio.com';

/**
 * The SDK's own HTTP client, re-pointed at `baseUrl` (TWILIO_API_BASE_URL). Only the origin
 * changes: paths, form encoding and basic auth stay exactly as the real SDK sends them, which
 * is what lets the test stand-in check the wire format.
 */
export class RebasedRequestClient extends twilio.RequestClient {
  private readonly baseUrl: string;

  constructor(baseUrl: string) {
    super();
    this.baseUrl = baseUrl.replace(/\/$/, '');
  }

  override async request<TData>(
    opts: RequestClient.RequestOptions<TData>,
  ): Promise<Response<TData>> {
    const uri = opts.uri.startsWith(TWILIO_API_ORIGIN)
      ? `${this.baseUrl}${opts.uri.slice(TWILIO_API_ORIGIN.length)}`
      : opts.uri;
    return await super.request<TData>({ ...opts, uri });
  }
}
