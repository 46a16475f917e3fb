;; Run in a batch Emacs after the recipe under test: waits (60 s at most)
;; for the current buffer's flymake diagnostics, writes them to $OUT as
;;   NAME: N diagnostics
;;   LINE:COL FIRST LINE OF THE MESSAGE
;; and exits. Batch Emacs runs no command loop, so what eglot-ensure
;; defers to the end of a command is run by hand, and flymake is asked to
;; check while waiting.
(run-hooks 'post-command-hook)
(let ((deadline (+ (float-time) 60)))
  (while (and (< (float-time) deadline)
              (null (and (bound-and-true-p flymake-mode)
                         (flymake-diagnostics))))
    (accept-process-output nil 0.1)
    (when (bound-and-true-p flymake-mode) (flymake-start))))
(let* ((diags (sort (flymake-diagnostics)
                    (lambda (a b) (< (flymake-diagnostic-beg a)
                                     (flymake-diagnostic-beg b)))))
       (lines (list (format "%s: %d diagnostics" (buffer-name)
                            (length diags)))))
  (dolist (d diags)
    (save-excursion
      (goto-char (flymake-diagnostic-beg d))
      (let ((text (car (split-string (flymake-diagnostic-text d) "\n"))))
        (push (format "%d:%d %s" (line-number-at-pos) (1+ (current-column))
                      (substring text 0 (min 80 (length text))))
              lines))))
  (with-temp-file (getenv "OUT")
    (insert (mapconcat #'identity (nreverse lines) "\n") "\n")))
(kill-emacs 0)
