import { Link } from 'react-router-dom';
import { DropdownMenu } from '#renderer/components/layout/dropdown-menu.tsx';

/** The signed-in Account dropdown (its own chunk: visitors never need it). */
export function AccountMenu({ onLogout }: { onLogout: () => void }) {
  return (
    <DropdownMenu label="Account" buttonClassName="nav-link btn btn-link" className="nav-item">
      {(close) => (
        <>
          <Link to="/account" className="dropdown-item" onClick={close}>
            My Account
          </Link>
          <button
            type="button"
            className="dropdown-item"
            onClick={() => {
              close();
              onLogout();
            }}
          >
            Log out
          </button>
        </>
      )}
    </DropdownMenu>
  );
}
