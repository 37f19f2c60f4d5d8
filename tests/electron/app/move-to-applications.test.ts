import { describe, expect, it } from 'vitest';
import { offerMoveToApplications } from '#electron/app/move-to-applications.ts';

function setUp(options: { isInApplications: boolean; answer: number; declined?: boolean }) {
  const calls: string[] = [];
  let prompts = { move_to_applications_declined: options.declined === true };
  const deps = {
    app: {
      isInApplicationsFolder: () => options.isInApplications,
      moveToApplicationsFolder: () => {
        calls.push('move');
        return true;
      },
    },
    dialog: {
      showMessageBox: () => {
        calls.push('ask');
        return Promise.resolve({ response: options.answer, checkboxChecked: false });
      },
    },
    store: {
      get: () => prompts,
      set: (_key: 'prompts', value: typeof prompts) => {
        prompts = value;
      },
    },
    log: () => undefined,
  };
  return {
    deps: deps as unknown as Parameters<typeof offerMoveToApplications>[0],
    calls,
    read: () => prompts,
  };
}

describe('moving to Applications', () => {
  it('offers the move outside Applications and moves when accepted', async () => {
    const { deps, calls } = setUp({ isInApplications: false, answer: 0 });
    await expect(offerMoveToApplications(deps)).resolves.toBe(true);
    expect(calls).toEqual(['ask', 'move']);
  });

  it('remembers "Not Now" and never asks again', async () => {
    const first = setUp({ isInApplications: false, answer: 1 });
    await expect(offerMoveToApplications(first.deps)).resolves.toBe(false);
    expect(first.read().move_to_applications_declined).toBe(true);
    const again = setUp({ isInApplications: false, answer: 0, declined: true });
    await offerMoveToApplications(again.deps);
    expect(again.calls).toEqual([]);
  });

  it('asks nothing when already in Applications', async () => {
    const { deps, calls } = setUp({ isInApplications: true, answer: 0 });
    await offerMoveToApplications(deps);
    expect(calls).toEqual([]);
  });
});
