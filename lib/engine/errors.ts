/** The message of anything thrown: an Error's message, else the value as text (a thrown string, a DOMException-like). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
