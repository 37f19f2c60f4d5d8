import { describe, expect, it } from 'vitest';
import { offerMoveToApplications } from '#electron/app/move-to-applications.ts';

type Prompts = {
  move_to_applications_declined: boolean;
  move_offered_version?: string | null;
};

function setUp(options: { isInApplications: boolean; answer: number; prompts?: Partial<Prompts> }) {
  const calls: string[] = [];
  const messages: string[] = [];
  let prompts: Prompts = { move_to_applications_declined: false, ...options.prompts };
  const deps = {
    app: {
      isInApplicationsFolder: () => options.isInApplications,
      moveToApplicationsFolder: () => {
        calls.push('move');
        return true;
      },
    },
    dialog: {
      showMessageBox: (box: { message: string }) => {
        calls.push('ask');
        messages.push(box.message);
        return Promise.resolve({ response: options.answer, checkboxChecked: false });
      },
    },
    store: {
      get: () => prompts,
      set: (_key: 'prompts', value: Prompts) => {
        prompts = value;
      },
    },
    log: () => undefined,
  };
  return {
    deps: deps as unknown as Parameters<typeof offerMoveToApplications>[0],
    calls,
    messages,
    read: () => prompts,
  };
}

describe('moving to Applications', () => {
  it('offers the move outside Applications and moves when accepted', async () => {
    const { deps, calls } = setUp({ isInApplications: false, answer: 0 });
    await expect(offerMoveToApplications(deps, { kind: 'launch' })).resolves.toBe(true);
    expect(calls).toEqual(['ask', 'move']);
  });

  it('remembers "Not Now" at launch and does not ask again at the next launch', async () => {
    const first = setUp({ isInApplications: false, answer: 1 });
    await expect(offerMoveToApplications(first.deps, { kind: 'launch' })).resolves.toBe(false);
    expect(first.read().move_to_applications_declined).toBe(true);
    const again = setUp({
      isInApplications: false,
      answer: 0,
      prompts: { move_to_applications_declined: true },
    });
    await offerMoveToApplications(again.deps, { kind: 'launch' });
    expect(again.calls).toEqual([]);
  });

  it('asks again for a new version that cannot be installed, once per version, saying why', async () => {
    const { deps, calls, messages, read } = setUp({
      isInApplications: false,
      answer: 1,
      prompts: { move_to_applications_declined: true },
    });
    await offerMoveToApplications(deps, { kind: 'update', version: '0.2.0' });
    expect(messages).toEqual(["Version 0.2.0 of Shelfwatch can't be installed here"]);
    expect(read().move_offered_version).toBe('0.2.0');
    await offerMoveToApplications(deps, { kind: 'update', version: '0.2.0' });
    expect(calls).toEqual(['ask']);
    await offerMoveToApplications(deps, { kind: 'update', version: '0.3.0' });
    expect(calls).toEqual(['ask', 'ask']);
  });

  it('always asks when the user asked, whatever was declined before', async () => {
    const { deps, calls } = setUp({
      isInApplications: false,
      answer: 0,
      prompts: { move_to_applications_declined: true, move_offered_version: '0.2.0' },
    });
    await expect(offerMoveToApplications(deps, { kind: 'asked', version: '0.2.0' })).resolves.toBe(
      true,
    );
    expect(calls).toEqual(['ask', 'move']);
  });

  it('asks nothing when already in Applications', async () => {
    const { deps, calls } = setUp({ isInApplications: true, answer: 0 });
    await offerMoveToApplications(deps, { kind: 'launch' });
    await offerMoveToApplications(deps, { kind: 'asked', version: null });
    expect(calls).toEqual([]);
  });
});
