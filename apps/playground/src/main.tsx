import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Root } from './App.js';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');
createRoot(root, {
  onUncaughtError(error) {
    root.innerHTML = '';
    const box = document.createElement('pre');
    box.className = 'crash';
    box.textContent = `The playground crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n\nReload the page; the session in skilltree dev is not affected.`;
    root.append(box);
  },
}).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
