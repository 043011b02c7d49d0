/** Thrown when a lazily loaded part of the app does not arrive (seed §8's ChunkLoadError). */
export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
}
