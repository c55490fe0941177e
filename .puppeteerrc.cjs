// Tests drive Debian's browsers (/usr/bin/chromium, /usr/bin/firefox-esr); never download one.
module.exports = { skipDownload: true };
