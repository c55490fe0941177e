import { render } from 'preact';
import '../ui/styles.css';
import './style.css';
import { t } from '../ui/i18n';
import { App } from './App';

// The tab's title in the user's language (index.html's <title> is the English fallback).
document.title = t('extName');
render(<App />, document.getElementById('app')!);
