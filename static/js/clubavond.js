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
