-- AlterTable
ALTER TABLE "api_key" ADD COLUMN     "callback_secret" TEXT;

