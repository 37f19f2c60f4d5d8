import Form from 'react-bootstrap/Form';
import { describeRequestError, readErrorStatus } from '#renderer/api/api-errors.ts';
import { useSaveSearchChannels, useSearchChannels } from '#renderer/api/channel-queries.ts';
import { CHANNEL_KIND_NAMES } from '#renderer/components/account/alert-channels.tsx';

/** Search settings: which of the account's alert channels this search sends to. */
export function SearchChannels({ searchId }: { searchId: string }) {
  const channels = useSearchChannels(searchId);
  const save = useSaveSearchChannels(searchId);
  // A plan without channels (403) has nothing to choose here; My Account says why.
  if (channels.isError && readErrorStatus(channels.error) === 403) return null;
  return (
    <div>
      <h3 className="h6">Alert channels</h3>
      {channels.isPending ? (
        <p className="small" role="status">
          Loading channels...
        </p>
      ) : channels.isError ? (
        <p className="small text-danger" role="alert">
          {describeRequestError(channels.error, "This search's channels couldn't be loaded.")}
        </p>
      ) : channels.data.length === 0 ? (
        <p className="small text-body-secondary">
          Add ntfy, Discord, Telegram or webhook channels in My Account to get alerts there too.
        </p>
      ) : (
        channels.data.map((channel) => (
          <Form.Check
            key={channel.id}
            type="switch"
            id={`search-channel-${channel.id}`}
            label={`${channel.label} (${CHANNEL_KIND_NAMES[channel.kind]})${channel.status === 'paused' ? ' · paused' : ''}`}
            checked={channel.is_used}
            disabled={save.isPending}
            onChange={(event) => {
              const used = channels.data
                .filter((other) => (other.id === channel.id ? event.target.checked : other.is_used))
                .map((other) => other.id);
              save.mutate(used);
            }}
          />
        ))
      )}
      {save.isError ? (
        <p className="small text-danger" role="alert">
          {describeRequestError(save.error, "The channels couldn't be saved. Please try again.")}
        </p>
      ) : null}
    </div>
  );
}
