import { render } from 'preact';
import '../ui/styles.css';
import './style.css';
import { LibraryPage } from './LibraryPage';

render(<LibraryPage />, document.getElementById('app')!);
