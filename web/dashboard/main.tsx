import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { App } from './app';

const root = document.getElementById('root');
if (root) {
  // The page's own "Loading…" goes; Preact renders into an empty element.
  root.replaceChildren();
  render(<App />, root);
}
