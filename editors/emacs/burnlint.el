;;; burnlint.el --- burnlint with eglot (Emacs 29+, or Emacs 28 with the eglot package) -*- lexical-binding: t; -*-

;; Load this file from your init file (or copy the forms):
;;   (load "/path/to/burnlint/editors/emacs/burnlint.el")
;; `burnlint' must be on `exec-path' (pip install burnlint), or set `burnlint-command'.
;; eglot runs one server per buffer. These entries go first in `eglot-server-programs',
;; so Rust buffers get burnlint instead of rust-analyzer.
;; Tested in batch Emacs 28.2 with eglot 1.9 against `burnlint server'.

(require 'eglot)

(defvar burnlint-command '("burnlint" "server")
  "Command that starts the burnlint language server.")

(dolist (mode '(rust-mode rust-ts-mode))
  (add-to-list 'eglot-server-programs
               `(,mode . ,(lambda (&rest _) burnlint-command))))

;; Answers workspace/configuration for the section "burnlint".
(setq-default eglot-workspace-configuration
              (plist-put (copy-tree (default-value 'eglot-workspace-configuration))
                         :burnlint '(:era "auto" :scope "openFiles" :ignore [] :unsafeFixes t)))

(defun burnlint-explain (text)
  "Explain a burnlint code, slug or burn panic TEXT through the server."
  (interactive "sburnlint explain (code, slug or panic text): ")
  (let* ((server (or (eglot-current-server)
                     (user-error "No burnlint server here: M-x eglot first")))
         (markdown (jsonrpc-request server :workspace/executeCommand
                                    `(:command "burnlint.explain" :arguments ,(vector text)))))
    (with-help-window "*burnlint explain*"
      (princ (if (stringp markdown) markdown (format "%S" markdown))))))

(defun burnlint-fix-all ()
  "Apply every safe burnlint fix in the buffer.
This is the code action `source.fixAll.burnlint'."
  (interactive)
  (eglot-code-actions (point-min) (point-max) "source.fixAll.burnlint" t))

(provide 'burnlint)
;;; burnlint.el ends here
