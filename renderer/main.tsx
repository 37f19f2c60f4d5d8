import 'bootstrap/dist/css/bootstrap.min.css';
import './styles/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BootErrorScreen } from './boot/boot-error-screen.tsx';
import { loadAppConfig } from './boot/load-app-config.ts';
import { App } from './app.tsx';
import { SpinnerScreen } from './components/spinner-screen.tsx';

// Boot: spinner, then the install's settings, then the app (or a readable error).
const container = document.getElementById('root');
if (container === null) {
  throw new Error('index.html has no #root element');
}
const root = createRoot(container);
root.render(<SpinnerScreen label="Loading Shelfwatch..." />);

// Start fetching the home screen's code while the settings load: it is what most visits show.
// Errors are ignored here; the router reports them when it really needs the chunk.
import('./routes/home.tsx').catch(() => undefined);
import('./routes/landing.tsx').catch(() => undefined);

loadAppConfig().then(
  (config) => {
    root.render(
      <StrictMode>
        <App config={config} />
      </StrictMode>,
    );
  },
  (error: unknown) => {
    console.error('Site settings could not be loaded', error);
    root.render(<BootErrorScreen error={error} />);
  },
);
