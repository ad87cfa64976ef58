// The console's entry: asks for the admin secret when the engine wants one (kept in session storage), then shows
// the navigation bar and the page of the current route.
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError, adminSecret, query } from './api';
import { useRoute, href } from './router';
import { Link } from './ui';
import { PAGES } from './pages';
import './style.css';

type Auth = 'checking' | 'ok' | 'needed';

function App() {
  const route = useRoute();
  const [auth, setAuth] = useState<Auth>('checking');
  const [problem, setProblem] = useState<string | null>(null);

  const check = async () => {
    try {
      await query({ type: 'get_inconsistent_metadata', args: {} });
      setAuth('ok');
      setProblem(null);
    } catch (e) {
      if (e instanceof ApiError && (e.status === 401 || e.code === 'access-denied' || e.code === 'invalid-headers')) {
        setProblem(adminSecret.get() ? e.message : null);
        adminSecret.clear();
        setAuth('needed');
      } else {
        setProblem(e instanceof Error ? e.message : String(e));
        setAuth('ok');
      }
    }
  };
  useEffect(() => void check(), []);

  if (auth === 'checking') return <div className="loading">Loading…</div>;
  if (auth === 'needed') return <Login problem={problem} onDone={check} />;
  const page = PAGES.find((p) => p.id === route.page) ?? PAGES[0];
  const Page = page.component;
  return (
    <div className="shell">
      <header>
        <span className="brand">engine</span>
        <nav>
          {PAGES.map((p) => (
            <Link key={p.id} to={href(p.id)} className={p.id === page.id ? 'active' : ''}>{p.title}</Link>
          ))}
        </nav>
        {adminSecret.get() && (
          <button className="link" onClick={() => { adminSecret.clear(); setAuth('needed'); }}>Log out</button>
        )}
      </header>
      {problem && <div className="error">{problem}</div>}
      <main><Page route={route} /></main>
    </div>
  );
}

function Login({ problem, onDone }: { problem: string | null; onDone: () => void }) {
  const [secret, setSecret] = useState('');
  return (
    <form className="login" onSubmit={(e) => { e.preventDefault(); adminSecret.set(secret); onDone(); }}>
      <h2>engine console</h2>
      <p>This engine has an admin secret. It is kept in this tab only (session storage).</p>
      <input type="password" aria-label="Admin secret" placeholder="Admin secret" value={secret} onChange={(e) => setSecret(e.target.value)} autoFocus />
      <button type="submit" disabled={!secret}>Enter</button>
      {problem && <div className="error">{problem}</div>}
    </form>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
