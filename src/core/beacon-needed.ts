/**
 * Thrown by a roll in a beacon game that has no round yet: nothing is written (its transaction rolls
 * back), and the router binds the request to a round instead (beacon-binding.ts).
 */
export class BeaconNeeded extends Error {
  constructor() {
    super('a beacon game rolls once its round is published');
  }
}
