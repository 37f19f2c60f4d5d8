import NavDropdown from 'react-bootstrap/NavDropdown';
import { Link } from 'react-router-dom';

/** The signed-in Account dropdown (its own chunk: visitors never need the dropdown code). */
export function AccountMenu({ onLogout }: { onLogout: () => void }) {
  return (
    <NavDropdown title="Account" id="account-menu" align="end">
      <NavDropdown.Item as={Link} to="/account">
        My Account
      </NavDropdown.Item>
      <NavDropdown.Item as="button" onClick={onLogout}>
        Log out
      </NavDropdown.Item>
    </NavDropdown>
  );
}
