import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import { Link } from 'react-router-dom';
import type {
  Channel,
  ChannelCreate,
  ChannelKind,
  ChannelTestResult,
} from '#shared/api/channels.ts';
import {
  describeInvalidInput,
  describeRequestError,
  isUnansweredRequest,
  readErrorBody,
  readErrorStatus,
} from '#renderer/api/api-errors.ts';
import {
  useAlertChannels,
  useCreateAlertChannel,
  useDeleteAlertChannel,
  useTestAlertChannel,
} from '#renderer/api/channel-queries.ts';

/** The page documenting the webhook body and its signature. */
export const WEBHOOK_DOCS_PATH = '/docs/webhooks';

/** How each kind is named in the form and the list. */
export const CHANNEL_KIND_NAMES: Readonly<Record<ChannelKind, string>> = {
  ntfy: 'ntfy',
  discord: 'Discord',
  telegram: 'Telegram',
  webhook: 'Webhook',
};

type Draft = {
  kind: ChannelKind;
  label: string;
  serverUrl: string;
  topic: string;
  token: string;
  url: string;
  botToken: string;
  chatId: string;
};

const EMPTY_DRAFT: Draft = {
  kind: 'ntfy',
  label: '',
  serverUrl: 'https://ntfy.sh',
  topic: '',
  token: '',
  url: '',
  botToken: '',
  chatId: '',
};

/** The POST body of a draft: only the fields of its kind. */
function toCreateBody(draft: Draft): ChannelCreate {
  const label = draft.label.trim() === '' ? undefined : draft.label.trim();
  switch (draft.kind) {
    case 'ntfy':
      return {
        kind: 'ntfy',
        label,
        server_url: draft.serverUrl,
        topic: draft.topic,
        ...(draft.token.trim() === '' ? {} : { token: draft.token.trim() }),
      };
    case 'discord':
      return { kind: 'discord', label, url: draft.url };
    case 'telegram':
      return { kind: 'telegram', label, bot_token: draft.botToken, chat_id: draft.chatId };
    case 'webhook':
      return { kind: 'webhook', label, url: draft.url };
  }
}

/** A refused add in plain words ("The address must be an https:// address."). */
function describeCreateError(error: unknown): string {
  if (isUnansweredRequest(error)) return describeRequestError(error, '');
  const { reason, message } = readErrorBody(error);
  return (
    describeInvalidInput(error) ??
    reason ??
    message ??
    "The channel couldn't be added. Please try again."
  );
}

/** A failed test: the limit's own sentence when tests are limited for now (429). */
function describeTestError(error: unknown): string {
  const fallback = "The test couldn't be sent. Please try again.";
  if (readErrorStatus(error) !== 429) return describeRequestError(error, fallback);
  return readErrorBody(error).reason ?? 'Too many tests for now. Please try again in a minute.';
}

/** My Account: the user's ntfy, Discord, Telegram and webhook channels. */
export function AlertChannels({ isAllowed }: { isAllowed: boolean }) {
  const channels = useAlertChannels(isAllowed);
  const create = useCreateAlertChannel();
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const [shownSecret, setShownSecret] = useState<string | null>(null);

  if (!isAllowed) {
    return (
      <p className="small text-body-secondary">
        Alerts on ntfy, Discord, Telegram or your own webhook come with the Better and Premium
        plans.
      </p>
    );
  }

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setShownSecret(null);
    create.mutate(toCreateBody(draft), {
      onSuccess: (created) => {
        setShownSecret(created.secret);
        setDraft({ ...EMPTY_DRAFT, kind: draft.kind });
      },
    });
  };
  const field = (
    key: keyof Omit<Draft, 'kind'>,
    label: string,
    props: { placeholder?: string; type?: string; help?: string } = {},
  ) => (
    <Form.Group className="mb-2" controlId={`channel-${key}`}>
      <Form.Label className="small mb-1">{label}</Form.Label>
      <Form.Control
        size="sm"
        type={props.type ?? 'text'}
        placeholder={props.placeholder}
        value={draft[key]}
        disabled={create.isPending}
        autoComplete="off"
        onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
      />
      {props.help === undefined ? null : <Form.Text>{props.help}</Form.Text>}
    </Form.Group>
  );

  return (
    <div>
      <p className="small text-body-secondary">
        Send stock alerts to your phone or your own tools as well. Each search can choose which
        channels it uses.
      </p>
      {channels.isPending ? (
        <p className="small" role="status">
          Loading channels...
        </p>
      ) : channels.isError ? (
        // Not role="alert": the account form's own alert stays the one announced on this page.
        <p className="text-danger small">
          {describeRequestError(
            channels.error,
            "Your alert channels couldn't be loaded. Please reload the page.",
          )}
        </p>
      ) : channels.data.length === 0 ? (
        <p className="small">No channels yet.</p>
      ) : (
        <ListGroup className="mb-3">
          {channels.data.map((channel) => (
            <ChannelItem key={channel.id} channel={channel} />
          ))}
        </ListGroup>
      )}
      {shownSecret === null ? null : (
        <Alert variant="success" className="small" onClose={() => setShownSecret(null)} dismissible>
          <p className="mb-1">
            Webhook added. Its signing secret is shown only this once; copy it now to verify the{' '}
            <code>X-Shelfwatch-Signature</code> header:
          </p>
          <code className="user-select-all text-break">{shownSecret}</code>
        </Alert>
      )}
      <Form onSubmit={submit} noValidate aria-label="Add an alert channel">
        <Form.Group className="mb-2" controlId="channel-kind">
          <Form.Label className="small mb-1">Add a channel</Form.Label>
          <Form.Select
            size="sm"
            value={draft.kind}
            disabled={create.isPending}
            onChange={(event) => {
              // An error about the old kind's fields means nothing for the new kind.
              create.reset();
              setDraft({ ...draft, kind: event.target.value as ChannelKind });
            }}
          >
            {(Object.keys(CHANNEL_KIND_NAMES) as ChannelKind[]).map((kind) => (
              <option key={kind} value={kind}>
                {CHANNEL_KIND_NAMES[kind]}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        {draft.kind === 'ntfy' ? (
          <>
            {field('serverUrl', 'Server URL', { placeholder: 'https://ntfy.sh' })}
            {field('topic', 'Topic', {
              placeholder: 'my-iphone-alerts',
              help: 'Subscribe to this topic in the ntfy app. Pick something hard to guess.',
            })}
            {field('token', 'Access token (optional)', {
              type: 'password',
              placeholder: 'tk_…',
            })}
          </>
        ) : null}
        {draft.kind === 'discord'
          ? field('url', 'Webhook URL', {
              placeholder: 'https://discord.com/api/webhooks/…',
              help: 'Channel settings → Integrations → Webhooks → Copy Webhook URL.',
            })
          : null}
        {draft.kind === 'telegram' ? (
          <>
            {field('botToken', 'Bot token', {
              type: 'password',
              placeholder: '123456789:AA…',
              help: 'From @BotFather. Add the bot to your chat first.',
            })}
            {field('chatId', 'Chat id', {
              placeholder: '-1001234567890 or @mychannel',
              help: 'Use "Send a test" after adding to confirm the bot can post there.',
            })}
          </>
        ) : null}
        {draft.kind === 'webhook'
          ? field('url', 'HTTPS URL', {
              placeholder: 'https://example.com/hooks/shelfwatch',
              help: 'Receives a signed JSON POST for every alert.',
            })
          : null}
        {draft.kind === 'webhook' ? (
          <p className="small mt-n1">
            <Link to={WEBHOOK_DOCS_PATH}>How to read and verify the webhook body</Link>
          </p>
        ) : null}
        {field('label', 'Name (optional)', { placeholder: 'My phone' })}
        {create.isError ? (
          <p className="text-danger small" role="alert">
            {describeCreateError(create.error)}
          </p>
        ) : null}
        <Button type="submit" size="sm" variant="outline-primary" disabled={create.isPending}>
          {create.isPending ? 'Adding...' : 'Add channel'}
        </Button>
      </Form>
    </div>
  );
}

/** One channel: where it points, its state, a test button and delete. */
function ChannelItem({ channel }: { channel: Channel }) {
  const test = useTestAlertChannel();
  const remove = useDeleteAlertChannel();
  const [result, setResult] = useState<ChannelTestResult | null>(null);
  const isBusy = test.isPending || remove.isPending;
  return (
    <ListGroup.Item>
      <div className="d-flex justify-content-between align-items-start gap-2">
        <div className="text-break">
          <strong>{channel.label}</strong>{' '}
          <Badge bg="secondary">{CHANNEL_KIND_NAMES[channel.kind]}</Badge>{' '}
          {channel.status === 'paused' ? (
            <Badge bg="warning" text="dark">
              Paused
            </Badge>
          ) : null}
          <div className="small text-body-secondary">{channel.target}</div>
        </div>
        <div className="d-flex gap-2 flex-shrink-0">
          <Button
            size="sm"
            variant="outline-secondary"
            disabled={isBusy}
            onClick={() =>
              test.mutate(channel.id, {
                onSuccess: setResult,
                onError: () => setResult(null),
              })
            }
          >
            {test.isPending ? 'Sending...' : 'Send a test'}
          </Button>
          <Button
            size="sm"
            variant="outline-danger"
            disabled={isBusy}
            aria-label={`Delete ${channel.label}`}
            onClick={() => remove.mutate(channel.id)}
          >
            Delete
          </Button>
        </div>
      </div>
      {channel.status === 'paused' ? (
        <Alert variant="warning" className="small mt-2 mb-0">
          {channel.pause_reason ?? 'Paused after repeated failed deliveries.'} Fix the channel, then
          send a test to turn it back on.
        </Alert>
      ) : null}
      {result === null ? null : (
        <p
          className={`small mt-2 mb-0 ${result.delivered ? 'text-success' : 'text-danger'}`}
          role="status"
        >
          {result.message}
        </p>
      )}
      {test.isError || remove.isError ? (
        <p className="small text-danger mt-2 mb-0" role="alert">
          {test.isError
            ? describeTestError(test.error)
            : describeRequestError(
                remove.error,
                "The channel couldn't be deleted. Please try again.",
              )}
        </p>
      ) : null}
    </ListGroup.Item>
  );
}
