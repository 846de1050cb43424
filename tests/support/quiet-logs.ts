// Import first in a test file: keeps the JSON logs out of the test report unless LOG_LEVEL is set.
process.env.LOG_LEVEL ??= 'silent';
