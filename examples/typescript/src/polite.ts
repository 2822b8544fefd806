// How the example's clients wait: a 429 is sent again once its Retry-After has passed, a 503
// after its Retry-After or, without one, after an exponential backoff with jitter; eight times
// at most, never longer than a minute at once. ky's retry does it under every call of
// openapi-fetch, streams included: each client is given `politeFetch` as its fetch.
import ky, { HTTPError } from "ky";

const RETRIED = [429, 503];

export async function politeFetch(request: Request): Promise<Response> {
  return polite(request, fetch);
}

/** `politeFetch` counting in `statuses` the status of every answer, those waited out and sent
 * again included (a 503 retried away is still a 503 the server gave). */
export function talliedFetch(statuses: Map<number, number>): (request: Request) => Promise<Response> {
  const counted = async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const response = await fetch(input, init);
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    return response;
  };
  return (request) => polite(request, counted);
}

async function polite(request: Request, send: typeof fetch): Promise<Response> {
  try {
    return await ky(request, {
      fetch: send,
      timeout: false, // a stream stays open as long as its game is played
      throwHttpErrors: (status) => RETRIED.includes(status), // what ky retries; others are answers
      retry: {
        limit: 8,
        // a refused request did nothing: a POST is sent again too
        methods: ["get", "post", "put", "patch", "head", "delete", "options", "trace"],
        statusCodes: RETRIED,
        afterStatusCodes: RETRIED,
        maxRetryAfter: 60_000,
        delay: (attempt) => 250 * 2 ** (attempt - 1),
        backoffLimit: 8_000,
        jitter: (delay) => delay * (0.5 + Math.random() / 2),
        // a connection that fails is reported, not tried again
        shouldRetry: ({ error }) => (error instanceof HTTPError ? undefined : false),
      },
    });
  } catch (error) {
    if (error instanceof HTTPError) {
      return error.response; // refused still after the last try: the caller reads the 429
    }
    throw error;
  }
}
