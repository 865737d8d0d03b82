/// The review pages' own style, keyboard script and key help; the report's
/// stylesheet does the rest.
enum Assets {
    static let stylesheet = """
        nav.site{display:flex;flex-wrap:wrap;gap:14px;align-items:center;padding:8px 16px;background:var(--fg)}
        nav.site a{color:#fff;text-decoration:none}nav.site a:first-child{font-weight:700}nav.site .keys{margin-left:auto;color:#c9d1d9;font-size:.85rem}
        main{max-width:1200px;margin:0 auto;padding:12px 16px}
        kbd{font:.75rem ui-monospace,monospace;border:1px solid var(--line);border-bottom-width:2px;border-radius:4px;padding:0 4px;background:var(--card);color:var(--fg)}
        .notice{background:#ddf4ff;border:1px solid #54aeff;border-radius:8px;padding:8px 12px;overflow-wrap:anywhere}
        .notice.error{background:#ffebe9;border-color:var(--bad)}
        .readonly{background:#fff8c5;border:1px solid #d4a72c;border-radius:8px;padding:8px 12px}
        .position,.filter{color:var(--muted)}.off{color:#aab2bd}
        .actions{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:.6rem 0}
        .actions form{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:0}
        .actions form.unsafe{flex:1 1 100%;border:1px solid var(--bad);border-radius:8px;padding:8px}
        .actions form.unsafe input[name=reason]{min-width:18rem}
        button{font:inherit;border:1px solid var(--line);background:var(--card);border-radius:6px;padding:5px 12px;cursor:pointer;min-height:34px}
        #accept button{background:var(--pass);color:#fff;border-color:var(--pass)}#discard button{background:var(--card);color:var(--bad);border-color:var(--bad)}
        .side-by-side{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:12px}
        #label-form fieldset{border:1px solid var(--line);border-radius:8px;margin:.5rem 0}
        #label-form label{display:block;margin:.2rem 0}#label-form .reason .meta{display:block;margin-left:1.6rem}
        #label-form textarea,#label-form input[name=reviewer]{display:block;font:inherit;width:100%;max-width:40rem;border:1px solid var(--line);border-radius:6px;padding:4px 6px}
        .replaces{color:var(--known)}
        ul.tracks{list-style:none;padding:0;margin:.3rem 0 .8rem}ul.tracks li{overflow-wrap:normal;word-break:keep-all}
        td.nowrap{white-space:nowrap}
        body.read-only form[method=post]{display:none}
        .current-label[data-verdict=sign]{color:var(--pass)}.current-label[data-verdict=reject]{color:var(--bad)}
        blockquote{margin:.3rem 0;padding:.2rem .8rem;border-left:3px solid var(--line);color:var(--muted);white-space:pre-line}
        .paging{margin:.6rem 0;color:var(--muted)}
        .person .intake dl>div{display:contents}.person .feedback{margin:.4rem 0 0;white-space:pre-line}
        ul.steps{list-style:none;padding:0;margin:0}ul.steps li{padding:3px 0;border-top:1px solid var(--line)}
        #keys{position:fixed;right:16px;bottom:16px;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 16px;box-shadow:0 4px 16px #0002;max-width:22rem}
        #keys dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;margin:0}
        """

    /// What each key does; `?` shows it.
    static let keyHelp = """
        <aside id="keys" hidden><h2>Keys</h2><dl>\
        <dt><kbd>n</kbd> <kbd>p</kbd></dt><dd>next, previous pending output</dd>\
        <dt><kbd>a</kbd></dt><dd>accept the pending output</dd>\
        <dt><kbd>c</kbd></dt><dd>tick "accept although checks now fail"</dd>\
        <dt><kbd>u</kbd></dt><dd>write the reason to approve a safety failure (<kbd>Enter</kbd> sends it)</dd>\
        <dt><kbd>x</kbd></dt><dd>discard the pending output</dd>\
        <dt><kbd>s</kbd></dt><dd>verdict: sign</dd>\
        <dt><kbd>r</kbd></dt><dd>verdict: reject</dd>\
        <dt><kbd>1</kbd>–<kbd>9</kbd></dt><dd>tick a reason (rejects)</dd>\
        <dt><kbd>e</kbd></dt><dd>write the label's note</dd>\
        <dt><kbd>Enter</kbd></dt><dd>save the label</dd>\
        <dt><kbd>q</kbd></dt><dd>the queue</dd>\
        <dt><kbd>g</kbd></dt><dd>a run's step on its golden track</dd>\
        <dt><kbd>Esc</kbd></dt><dd>leave a text field</dd></dl></aside>
        """

    /// Keyboard shortcuts for the review loop. Each key clicks, submits or follows
    /// what the page marks with `data-key`; nothing happens while typing in a field.
    static let script = """
        (function () {
          'use strict';
          // The printed address carries the token in its fragment, which no request sends.
          // It is kept in this origin's storage (the port included, so no other server
          // on this machine can read it) and added to each form as it is sent.
          var STORE = 'trainer-eval-token';
          var given = /(?:^#|&)token=([0-9a-f]{64})/.exec(window.location.hash);
          if (given) {
            window.localStorage.setItem(STORE, given[1]);
            window.history.replaceState(null, '', window.location.pathname + window.location.search);
          }
          if (!window.localStorage.getItem(STORE)) {
            // Without the token nothing can be changed here: say so, and show no form that would be refused.
            var banner = document.querySelector('.readonly');
            if (banner) banner.hidden = false;
            document.body.classList.add('read-only');
          }
          document.addEventListener('submit', function (event) {
            var form = event.target;
            if (form.method.toLowerCase() !== 'post') return;
            var field = form.querySelector('input[name=token]');
            if (!field) {
              field = document.createElement('input');
              field.type = 'hidden';
              field.name = 'token';
              form.appendChild(field);
            }
            field.value = window.localStorage.getItem(STORE) || '';
          }, true);
          function byKey(key) { return document.querySelector('[data-key="' + key + '"]'); }
          function submit(id) { var form = document.getElementById(id); if (form) { form.requestSubmit(); return true; } return false; }
          document.addEventListener('keydown', function (event) {
            if (event.ctrlKey || event.metaKey || event.altKey) return;
            var target = event.target, tag = target && target.tagName;
            var typing = tag === 'TEXTAREA' || tag === 'SELECT' || (tag === 'INPUT' && target.type !== 'checkbox' && target.type !== 'radio');
            if (typing) { if (event.key === 'Escape') target.blur(); return; }
            var key = event.key, form = document.getElementById('label-form');
            if (key === '?') { var help = document.getElementById('keys'); help.hidden = !help.hidden; return; }
            if (key === 'Escape') { document.getElementById('keys').hidden = true; return; }
            if (key === 'Enter') {
              if (tag === 'A' || tag === 'BUTTON') return;
              if (form && form.querySelector('input[name=verdict]:checked')) { event.preventDefault(); form.requestSubmit(); }
              return;
            }
            if (/^[1-9]$/.test(key) && form) {
              var box = form.querySelector('input[data-index="' + key + '"]');
              if (box) { box.checked = !box.checked; var reject = form.querySelector('input[data-key="r"]'); if (box.checked && reject) reject.checked = true; }
              return;
            }
            if ((key === 's' || key === 'r') && form) {
              var radio = form.querySelector('input[data-key="' + key + '"]');
              if (radio) { radio.checked = true; if (key === 's') form.querySelectorAll('input[name=reason]').forEach(function (b) { b.checked = false; }); }
              if (key === 'r') form.querySelector('fieldset.reasons').scrollIntoView({block: 'nearest'});
              return;
            }
            if (key === 'e' && form) { event.preventDefault(); form.querySelector('textarea').focus(); return; }
            if (key === 'c') { var confirm = document.querySelector('#accept input[name=confirm]'); if (confirm) confirm.checked = !confirm.checked; return; }
            if (key === 'u') { var reason = document.querySelector('#accept-unsafe input[name=reason]'); if (reason) { event.preventDefault(); reason.focus(); } return; }
            if (key === 'a') { submit('accept'); return; }
            if (key === 'x') { submit('discard'); return; }
            if (key === 'n' || key === 'p' || key === 'q' || key === 'g') { var link = byKey(key); if (link) window.location.href = link.href; }
          });
        })();
        """
}
