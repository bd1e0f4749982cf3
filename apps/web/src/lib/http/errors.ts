import type { ErrorEntry } from '@fleetgate/shared/schemas/api';

/** A failed API call: the status and the `errors` of the body (product §3 Error entry). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly errors: ErrorEntry[],
    readonly body: unknown = undefined,
  ) {
    super(errors[0]?.message ?? (statusText || `Request failed (${status})`));
    this.name = 'ApiError';
  }

  get code(): string | undefined {
    return this.errors[0]?.code;
  }
}

/** No response at all: the network is down or the request was cut. */
export class NetworkError extends Error {
  constructor(message = 'Failed to send request. Try again later') {
    super(message);
    this.name = 'NetworkError';
  }
}

export class TimeoutError extends Error {
  constructor() {
    super('Request timeout');
    this.name = 'TimeoutError';
  }
}

/** A request cancelled on purpose: by a route change ('Route changed') or a newer duplicate ('Superseded'). */
export class CancelledError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'CancelledError';
  }
}
