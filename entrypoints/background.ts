export default defineBackground(() => {
  // Wiring lands with the extension issue.
});
