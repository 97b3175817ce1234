// Errors as values with a kind; mapped to HTTP and GraphQL in one place each.
/** `BadGateway` and `GatewayTimeout`: a service the request needed (a summarizer) failed or did not answer in time. */
export type ErrorKind = 'Invalid' | 'NotFound' | 'Conflict' | 'Unauthorized' | 'Forbidden' | 'BadRequest' | 'TooLarge' | 'BadGateway' | 'GatewayTimeout';

export interface FieldError {
  location: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }
}

export const invalid = (errors: FieldError[], message = 'Invalid request body') => new AppError('Invalid', message, errors);
export const notFound = () => new AppError('NotFound', 'Not Found');
export const conflict = (message = 'Conflict: the resource was changed by another request') => new AppError('Conflict', message);
export const unauthorized = () => new AppError('Unauthorized', 'Unauthorized');
export const forbidden = () => new AppError('Forbidden', 'Forbidden');

export const httpStatusOf: Record<ErrorKind, number> = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  Invalid: 422,
  TooLarge: 413,
  BadGateway: 502,
  GatewayTimeout: 504,
};
