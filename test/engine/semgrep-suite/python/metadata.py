import marshal
import pickle


def restore(session_blob, code_blob, check):
    # ruleid: python-pickle-loads
    state = pickle.loads(session_blob)
    # ruleid: python-marshal-loads
    code = marshal.loads(code_blob)
    # ruleid: python-assert-used
    assert check(state), "invalid state"
    # ruleid: python-print-debug
    print(state)
    # ruleid: python-eval-call
    result = eval(code)
    # ruleid: python-exec-call
    exec(code)
    # ruleid: python-input-call
    answer = input("continue? ")
    return result, answer
