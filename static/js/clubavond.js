// Keyboard-first result entry: Enter saves the board and moves to the next one.
(function () {
  function inputs() {
    return Array.from(document.querySelectorAll("input.result-input"));
  }
  function focusAfter(board) {
    var list = inputs();
    var next = list.find(function (el) {
      return parseInt(el.name.split("-")[1], 10) > board;
    });
    if (next) { next.focus(); next.select(); }
  }
  document.addEventListener("keydown", function (event) {
    var el = event.target;
    if (!el.classList || !el.classList.contains("result-input") || event.key !== "Enter") return;
    event.preventDefault();
    var board = parseInt(el.name.split("-")[1], 10);
    if (window.htmx) {
      el.dataset.advance = "1";
      el.dispatchEvent(new Event("change", { bubbles: true }));
      if (el.value === el.defaultValue) focusAfter(board);
    } else {
      el.form.submit();
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var row = event.detail.target;
    if (row && row.id && row.id.indexOf("board-") === 0) {
      focusAfter(parseInt(row.id.split("-")[1], 10));
    }
  });
})();

// Big uploads (a federation's rating list): a progress bar while the file travels, then the answer page.
(function () {
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var bar = form.querySelector("progress[data-upload]");
    if (!bar || !window.FormData || !window.XMLHttpRequest) return;
    event.preventDefault();
    var xhr = new XMLHttpRequest();
    bar.hidden = false;
    xhr.upload.addEventListener("progress", function (e) {
      if (e.lengthComputable) { bar.max = e.total; bar.value = e.loaded; }
    });
    xhr.upload.addEventListener("load", function () { bar.removeAttribute("value"); });
    xhr.addEventListener("load", function () {
      if (xhr.responseURL && xhr.responseURL !== window.location.href) {
        window.history.pushState({}, "", xhr.responseURL);
      }
      document.open(); document.write(xhr.responseText); document.close();
    });
    xhr.open(form.method || "post", form.action || window.location.href);
    xhr.send(new FormData(form));
  });
})();

// Small behaviours declared in the markup (the Content-Security-Policy allows no inline handlers):
// <select data-submit-on-change> submits its form; <form data-confirm="question"> asks first;
// <form data-reveal-on-submit="id"> shows the element with that id while the form is sent.
(function () {
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el.matches && el.matches("select[data-submit-on-change]") && el.form) el.form.submit();
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    if (form.dataset.revealOnSubmit) {
      var shown = document.getElementById(form.dataset.revealOnSubmit);
      if (shown) shown.hidden = false;
    }
  }, true);
})();
