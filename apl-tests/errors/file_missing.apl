⍝ reading a file that does not exist stops the program with FILE I/O ERROR
⍝! FILE I/O ERROR
⎕ReadFile 'apl-tests/data/no-such-file.txt'
