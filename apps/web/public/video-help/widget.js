/* global window, document */
/*
 * Demo video-help widget (docs/configurator.md). The portal loads this script only after marketing
 * consent and polls for window.ShkVideoHelp; a real provider's script offers the same two calls.
 */
(function () {
  var root = null;
  window.ShkVideoHelp = {
    init: function (options) {
      if (root) return;
      root = document.createElement('div');
      root.setAttribute('data-testid', 'video-help-widget');
      root.setAttribute('role', 'complementary');
      root.setAttribute('aria-label', 'Video-Hilfe');
      root.style.cssText =
        'position:fixed;right:16px;bottom:16px;z-index:150;background:#0b5cad;color:#fff;border-radius:24px;' +
        'padding:10px 16px;font:600 14px system-ui,sans-serif;box-shadow:0 4px 12px rgba(0,0,0,.25)';
      var link = document.createElement('a');
      link.textContent = 'Video-Hilfe';
      link.href = (options && options.videoUrl) || '#';
      link.target = '_blank';
      link.rel = 'noopener';
      link.style.cssText = 'color:inherit;text-decoration:none';
      root.appendChild(link);
      ((options && options.container) || document.body).appendChild(root);
    },
    destroy: function () {
      if (root) root.remove();
      root = null;
    },
  };
})();
