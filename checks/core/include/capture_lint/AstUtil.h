//===- AstUtil.h - Small AST helpers for the capture analysis ---*- C++ -*-===//
//
// Naming callees the way the catalog does (and across translation units, by
// USR), reading source text through macros, unwrapping implicit conversions,
// walking up overridden methods, and telling whether a stream argument means
// the legacy default stream.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_LINT_ASTUTIL_H
#define CAPTURE_LINT_ASTUTIL_H

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace clang {
class ParentMap;
class ASTContext;
class SourceManager;
} // namespace clang

namespace capture_lint {

class Catalog;

/// The function a call names. In a template nobody instantiates, a call
/// with dependent arguments keeps its callee as an unresolved name
/// (`check(cudaStreamBeginCapture(s, mode_))` in a class template): then
/// the one function the name finds, or, when it finds overloads of a
/// library function (none defined in user code), the first of them.
const clang::FunctionDecl *directCallee(const clang::CallExpr *Call);

/// The function a call or construction invokes, if known statically.
const clang::FunctionDecl *calleeOf(const clang::Stmt *S);

/// The catalog's name for a function: the qualified name without template
/// arguments ("at::TensorBase::size", "cudaMalloc").
std::string catalogName(const clang::FunctionDecl *FD);

/// catalogName(FD) where \p Cat may list FD, else "" (no entry's name):
/// for lookups. The qualified name is printed only for a function whose
/// own name ends some entry's name; printing it for every call cost more
/// than the analysis on template-heavy code.
std::string listedName(const clang::FunctionDecl *FD, const Catalog &Cat);

/// Source text of \p E as written in the file (macro arguments resolved to
/// their spelling). Empty when it cannot be recovered.
std::string sourceText(const clang::Expr *E, const clang::ASTContext &Ctx);

/// Source text of \p E only when it maps to one range of the file (a whole
/// macro use such as `cudaStreamLegacy` counts); empty otherwise.
std::string writtenText(const clang::Expr *E, const clang::ASTContext &Ctx);

/// A location in a file for diagnostics: a call written as a macro argument
/// (CUDA_CHECK(cudaMalloc(...))) maps to where the argument is spelled, a
/// call produced by a macro body maps to the macro's use.
clang::SourceLocation fileLoc(clang::SourceLocation L,
                              const clang::SourceManager &SM);

/// Strips parentheses, implicit casts, temporaries and converting
/// constructors down to what the user wrote.
const clang::Expr *unwrap(const clang::Expr *E);

/// The declaration an argument names after unwrapping (a variable, an
/// enumerator), or null.
const clang::NamedDecl *namedDeclOf(const clang::Expr *E);

/// The variable or member of `this` an expression refers to as the base of
/// a pointer, array or address (`p`, `&x`, `buf.data()`, `(void*)p`,
/// `host_buf_` meaning `this->host_buf_`), or null.
const clang::ValueDecl *baseDeclOf(const clang::Expr *E);

/// Like baseDeclOf, but field-sensitive: for an access through a member
/// (`&p->a`, `s.buf[i]`, `this->x`) the field itself, so that a copy into
/// `p->a` and a read of `p->b` are told apart.
const clang::ValueDecl *accessedDeclOf(const clang::Expr *E);

/// True when \p E names \p D itself (`x`, or `m` for `this->m`), as
/// opposed to an element or the pointee.
bool namesDecl(const clang::Expr *E, const clang::ValueDecl *D);

/// If \p Arg denotes the legacy default stream, how it was written
/// ("defaulted", "0", "nullptr", "cudaStreamLegacy"...); otherwise nullopt.
std::optional<std::string> legacyStreamSpelling(const clang::Expr *Arg,
                                                const clang::ASTContext &Ctx);

/// A key identifying the stream (or graph object) an expression denotes,
/// for pairing begin and end calls; empty when it cannot be determined.
std::string streamKey(const clang::Expr *E);

/// The field \p E names when it is a member of `this` (`stream_`,
/// `this->stream_`), or null.
const clang::FieldDecl *thisMember(const clang::Expr *E);

/// Evaluates an integer constant (an enumerator, a literal), if possible.
std::optional<int64_t> constantInt(const clang::Expr *E,
                                   const clang::ASTContext &Ctx);

/// Whether \p D is written outside system headers.
bool inUserCode(const clang::Decl *D);

/// Whether the body of \p D belongs to the toolchain: a system header of
/// the compiler, the system (/usr, /opt/rocm), or an include tree holding
/// the CUDA or HIP runtime headers or libtorch's (ATen/, c10/). Bodies in
/// other system headers, third-party libraries included with -isystem, hold
/// the user's capture code: calls from a region are followed into them.
bool inToolchainCode(const clang::Decl *D);

/// Calls \p Visit on every declaration of the translation unit outside
/// system headers, descending into namespaces, linkage specifications and
/// classes; with \p IntoClassTemplates, a class template is visited as (and
/// descended into through) the class it declares.
void forEachUserDecl(const clang::ASTContext &Ctx, bool IntoClassTemplates,
                     llvm::function_ref<void(const clang::Decl *)> Visit);

/// The USR of \p D's canonical declaration (what names a function in every
/// translation unit alike), or "" where it has none.
std::string usrOf(const clang::Decl *D);

/// Every method \p MD overrides, up the hierarchy, each once.
llvm::SmallVector<const clang::CXXMethodDecl *, 4>
allOverridden(const clang::CXXMethodDecl *MD);

/// True when every use of \p VD in \p Body only reads its value (no
/// write, address taken or reference bound), and always for a const object
/// or a const reference, which nothing writes.
bool onlyReadIn(const clang::ValueDecl *VD, const clang::Stmt *Body);

/// Like constantInt, and also a local variable of \p Body initialised with a
/// constant and never written, nor its address taken, nor bound to a
/// reference (`auto mode = cudaStreamCaptureModeRelaxed; ... begin(s, mode)`),
/// and a const member whose in-class initialiser is a constant that no
/// constructor overrides (`const bool debug_synchronous = false;`).
std::optional<int64_t> constantValueIn(const clang::Expr *E,
                                       const clang::Stmt *Body,
                                       const clang::ASTContext &Ctx);

/// Whether the body of \p FD, or of the functions it calls that \p Follow
/// accepts (\p Depth calls down), has a statement \p Is accepts. A lambda's
/// body is its own (followed when it is called).
bool bodyHas(const clang::FunctionDecl *FD, unsigned Depth,
             llvm::function_ref<bool(const clang::Stmt *)> Is,
             llvm::function_ref<bool(const clang::FunctionDecl *)> Follow);

/// How a function is named in notes ("lambda" for a lambda's operator()).
std::string displayName(const clang::FunctionDecl *FD);

/// Where a call is reported: the member name of a member call, else the
/// call's beginning.
clang::SourceLocation callLoc(const clang::Expr *Call);

/// The statement at whose end the storage of local \p Var ends: the
/// nearest block or scope-introducing statement (`for`, `if`, `while`,
/// `switch` with their declarations) around its declaration in \p Body;
/// null when \p Body does not declare it.
const clang::Stmt *scopeOfLocal(const clang::VarDecl *Var,
                                const clang::Stmt *Body,
                                const clang::ParentMap &PM);

/// Visits \p Root and every statement below it, depth first; \p Visit
/// returns false to leave a node's children out. Null children are skipped.
void walkStatements(const clang::Stmt *Root,
                    llvm::function_ref<bool(const clang::Stmt *)> Visit);

/// How many arguments of \p Call come before the one for \p Callee's first
/// parameter: 1 for a member operator call (`obj(x)`, whose object is
/// argument 0), else 0.
unsigned argumentOffset(const clang::CallExpr *Call,
                        const clang::FunctionDecl *Callee);

/// Whether a parameter of type \p T receives an integral or enum value the
/// callee can only read: by value, by const reference, or by forwarding
/// reference (`const bool &` of a forwarded pack).
bool passesIntegralValue(clang::QualType T);

/// \p E without the casts, parentheses and `std::forward<T>(...)` /
/// `std::move(...)` calls that only pass a value on (a forwarded pack
/// element is the caller's argument).
const clang::Expr *ignoreForwarding(const clang::Expr *E);

/// The parameter an argument passes on: `f`, `*fp`, `std::forward<F>(f)`,
/// `std::move(f)`, a copy of `f`; null otherwise.
const clang::ParmVarDecl *parameterOf(const clang::Expr *E);

/// The parameter a call invokes: `f()`, `(*fp)()`, `std::forward<F>(f)()`,
/// `std::invoke(f)`; null when the callee is not a parameter.
const clang::ParmVarDecl *invokedParam(const clang::CallExpr *Call);

} // namespace capture_lint

#endif // CAPTURE_LINT_ASTUTIL_H
