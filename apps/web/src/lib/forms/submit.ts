import { apiRequest, type Envelope, toFormData } from '../http/client';
import type { FormDefinition, FormValues, SubmitContext } from './types';

export type SubmitStatus = 'idle' | 'waiting' | 'success' | 'error';

function holdsFile(value: unknown): boolean {
  if (value instanceof Blob) return true;
  if (Array.isArray(value)) return value.some(holdsFile);
  if (value && typeof value === 'object') return Object.values(value).some(holdsFile);
  return false;
}

/** The window id of a form: a modal opened from a form takes the form's id (product §2). */
export function formWindowId(name: string, id: string | undefined): string {
  return id ? `form:${name}:${id}` : `form:${name}`;
}

/**
 * Sends a form (product §7 Forms and actions): method POST unless the definition says,
 * JSON body of the form data, or multipart when it is an upload or carries a file.
 */
export function sendForm(
  definition: FormDefinition,
  values: FormValues,
  context: SubmitContext,
): Promise<Envelope<unknown>> {
  const path = typeof definition.endpoint === 'function' ? definition.endpoint(context) : definition.endpoint;
  const method =
    typeof definition.method === 'function' ? definition.method(context) : (definition.method ?? 'POST');
  const body = definition.toBody ? definition.toBody(values, context) : values;
  // A submitted change is not undone by leaving the page: it survives route changes.
  if (definition.upload || holdsFile(body)) {
    return apiRequest(method, path, {
      formData: toFormData(body as Record<string, unknown>),
      keepOnRouteChange: true,
    });
  }
  return apiRequest(method, path, { body, keepOnRouteChange: true });
}
