// How the simulated Apple behaves. The defaults are Apple as public reports describe it in
// late 2026 (../shared/reference/apple/README.md, "Apple as it is in late 2026"):
// fulfillment-messages answers 541 to everything, and one address gets about 30 requests
// before every request answers 541 for 10 minutes or more.

/** Whether `/shop/fulfillment-messages` answers (2021-2024) or is dead (541 to every request). */
export type FulfillmentMessagesMode = 'dead' | 'alive';

/** The simulated service's behaviour; each field has an environment variable (see README.md). */
export type SimulatorBehaviour = {
  /** SIMULATOR_FULFILLMENT_MESSAGES. */
  fulfillmentMessages: FulfillmentMessagesMode;
  /**
   * Whether `/shop/retail/pickup-message` answers (in code only: tests of the engine's switch
   * to the other shape when the one in use starts answering 541 to everything).
   */
  pickupMessage: FulfillmentMessagesMode;
  /** SIMULATOR_BLOCK_AFTER_REQUESTS: requests one address may make per window; 0 turns the block off. */
  blockAfterRequests: number;
  /** SIMULATOR_BLOCK_WINDOW_SECONDS: the sliding window those requests are counted in. */
  blockWindowSeconds: number;
  /** SIMULATOR_BLOCK_SECONDS: how long a tripped address answers 541, from its latest request. */
  blockSeconds: number;
};

/** Apple today: fulfillment-messages dead, 30 requests in 10 minutes, then 10 minutes of 541. */
export const DEFAULT_SIMULATOR_BEHAVIOUR: Readonly<SimulatorBehaviour> = Object.freeze({
  fulfillmentMessages: 'dead',
  pickupMessage: 'alive',
  blockAfterRequests: 30,
  blockWindowSeconds: 600,
  blockSeconds: 600,
});

/**
 * Apple as it answered until 2024, for callers that test something other than the budget:
 * fulfillment-messages alive and no per-address block.
 */
export const LEGACY_SIMULATOR_BEHAVIOUR: Readonly<Partial<SimulatorBehaviour>> = Object.freeze({
  fulfillmentMessages: 'alive',
  blockAfterRequests: 0,
});

/** Longest window or block the simulator accepts: a day. */
export const MAX_BLOCK_SECONDS = 86_400;

/** Fills in the defaults and refuses values that cannot mean anything, naming the option. */
export function resolveSimulatorBehaviour(
  options: Partial<SimulatorBehaviour> = {},
): SimulatorBehaviour {
  const behaviour: SimulatorBehaviour = {
    fulfillmentMessages:
      options.fulfillmentMessages ?? DEFAULT_SIMULATOR_BEHAVIOUR.fulfillmentMessages,
    pickupMessage: options.pickupMessage ?? DEFAULT_SIMULATOR_BEHAVIOUR.pickupMessage,
    blockAfterRequests:
      options.blockAfterRequests ?? DEFAULT_SIMULATOR_BEHAVIOUR.blockAfterRequests,
    blockWindowSeconds:
      options.blockWindowSeconds ?? DEFAULT_SIMULATOR_BEHAVIOUR.blockWindowSeconds,
    blockSeconds: options.blockSeconds ?? DEFAULT_SIMULATOR_BEHAVIOUR.blockSeconds,
  };
  if (behaviour.fulfillmentMessages !== 'dead' && behaviour.fulfillmentMessages !== 'alive') {
    throw new RangeError(
      `fulfillmentMessages must be "dead" or "alive", not ${String(behaviour.fulfillmentMessages)}`,
    );
  }
  if (behaviour.pickupMessage !== 'dead' && behaviour.pickupMessage !== 'alive') {
    throw new RangeError(
      `pickupMessage must be "dead" or "alive", not ${String(behaviour.pickupMessage)}`,
    );
  }
  if (!Number.isInteger(behaviour.blockAfterRequests) || behaviour.blockAfterRequests < 0) {
    throw new RangeError(
      `blockAfterRequests must be a whole number of requests, 0 for no block, not ${behaviour.blockAfterRequests}`,
    );
  }
  for (const name of ['blockWindowSeconds', 'blockSeconds'] as const) {
    const seconds = behaviour[name];
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_BLOCK_SECONDS) {
      throw new RangeError(
        `${name} must be more than 0 and at most ${MAX_BLOCK_SECONDS}, not ${seconds}`,
      );
    }
  }
  return behaviour;
}
